import { Box, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { linkAnalyticsQueryOptions } from './api';
import { ClicksPerDayChart } from './ClicksPerDayChart';

/** Clicks on one link: per day over 30 days, and by device, referrer and country. */
export function LinkAnalyticsPanel({ linkId }: { linkId: string }) {
  // The route's loader has them: unfolding a link is a place in the address.
  const { data: analytics } = useSuspenseQuery(linkAnalyticsQueryOptions(linkId));
  const { clicksByDay, deviceBreakdown, referrerBreakdown, countryBreakdown } = analytics;
  const data = clicksByDay.map(({ date, clicks }) => ({ day: date.slice(5), clicks }));
  const clickedDays = clicksByDay.filter(({ clicks }) => clicks > 0);
  // What the bars show, for those who cannot see them.
  const chartSummary =
    clickedDays.length === 0
      ? 'Clicks per day: none in the last 30 days'
      : `Clicks per day: ${clickedDays.map(({ date, clicks }) => `${clicks} on ${date}`).join(', ')}`;

  return (
    <Stack gap="md">
      <Box>
        <Title order={3} fz="sm" mb="xs">
          Clicks per day (last 30 days)
        </Title>
        <Box role="img" aria-label={chartSummary}>
          <ClicksPerDayChart h={160} data={data} />
        </Box>
      </Box>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <ClickBreakdown title="Devices" counts={deviceBreakdown} />
        <ClickBreakdown title="Referrers" counts={referrerBreakdown} />
        <ClickBreakdown title="Countries" counts={countryBreakdown} />
      </SimpleGrid>
    </Stack>
  );
}

function ClickBreakdown({ title, counts }: { title: string; counts: Record<string, number> }) {
  const rows = Object.entries(counts).sort(([, a], [, b]) => b - a);
  const total = rows.reduce((sum, [, count]) => sum + count, 0);
  return (
    <Card withBorder padding="sm" radius="md">
      <Title order={3} fz="sm" mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No clicks yet
        </Text>
      ) : (
        <Stack gap={6}>
          {rows.map(([label, count]) => (
            <Box key={label}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {label}
                </Text>
                <Text size="sm" fw={600}>
                  {count}
                </Text>
              </Group>
              <Progress
                value={(count / total) * 100}
                size="sm"
                aria-label={`${label}: ${count} ${count === 1 ? 'click' : 'clicks'}`}
              />
            </Box>
          ))}
        </Stack>
      )}
    </Card>
  );
}
