import { SimpleGrid, Stack, Title } from '@mantine/core';
import type { AdminTrends } from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { adminTrendsQueryOptions } from './statsApi';
import { TrendChart, type TrendPoint } from './TrendChart';

const count = new Intl.NumberFormat();
const wholeDollars = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const dollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

type Figure = Exclude<keyof AdminTrends['days'][number], 'date'>;

const charts: { figure: Figure; title: string; dollars?: true }[] = [
  { figure: 'signups', title: 'Sign-ups' },
  { figure: 'linksCreated', title: 'Links created' },
  { figure: 'clicks', title: 'Clicks' },
  { figure: 'revenue', title: 'Revenue', dollars: true },
];

/** The last 30 days of sign-ups, links created, clicks and revenue, a small bar chart each. */
export function OverviewTrends() {
  const { data } = useSuspenseQuery(adminTrendsQueryOptions());
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Last 30 Days
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        {charts.map((chart) => {
          const cents = chart.dollars === true;
          // Money is drawn in dollars, so that its axis stops at round dollars.
          const points: TrendPoint[] = data.days.map((day) => ({
            date: day.date,
            value: cents ? day[chart.figure] / 100 : day[chart.figure],
          }));
          const total = data.days.reduce((sum, day) => sum + day[chart.figure], 0);
          return (
            <TrendChart
              key={chart.figure}
              title={chart.title}
              summary={`${cents ? dollars.format(total / 100) : count.format(total)} in 30 days`}
              points={points}
              format={(value) => (cents ? wholeDollars.format(value) : count.format(value))}
            />
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
