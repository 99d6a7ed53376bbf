import {
  Alert,
  Box,
  Card,
  Group,
  Loader,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type AnalyticsPeriod, analyticsRanges, type TargetingRule } from '@sniplink/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { ApiError } from '../api/http';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { linkAnalyticsQueryOptions } from './api';
import { changeText, dayLabel, startLabel } from './axis';
import { ClicksChart } from './ClicksChart';
import { type RangeChoice, rangeNames, rangeOf, rangeParamOf } from './range';
import { ruleClicks } from './targeting';

// The date picker and the map (with its world's outlines) load only when shown.
const CustomRangePicker = lazy(() => import('./CustomRangePicker'));
const CountryMap = lazy(() => import('./CountryMap'));

const presets = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: 'custom', label: 'Custom' },
];

/**
 * Clicks on one link over a range (the address names it: `range`): per hour or day, the total against the
 * range before, and by device, browser, operating system, referrer and country, with a world map; for a
 * link with targeting rules, the clicks each rule sent.
 */
export function LinkAnalyticsPanel({ linkId, rules }: { linkId: string; rules: readonly TargetingRule[] }) {
  const { place, go } = useDashboardPlace();
  const range = rangeOf(place.range);
  const setRange = (choice: RangeChoice) => go({ range: rangeParamOf(choice) }, { replace: true });
  // The route's loader has the range in the address; another one keeps the last answer on screen meanwhile.
  const analytics = useQuery({
    ...linkAnalyticsQueryOptions(linkId, range),
    placeholderData: keepPreviousData,
  });
  const custom = typeof range !== 'string';

  return (
    <Stack gap="md" aria-busy={analytics.isFetching}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <SegmentedControl
          size="xs"
          aria-label="Range"
          value={custom ? 'custom' : range}
          onChange={(value) => setRange(analyticsRanges.find((name) => name === value) ?? customFromToday())}
          data={presets}
        />
        {custom && (
          <Suspense fallback={<Loader size="xs" aria-label="Loading the date picker" />}>
            {/* Keyed by the range: a range from the address (back, a shared link) starts the picker afresh. */}
            <CustomRangePicker key={`${range.from}..${range.to}`} value={range} onChange={setRange} />
          </Suspense>
        )}
      </Group>
      {analytics.isError ? (
        <Alert color="red" title="These analytics could not be loaded">
          {analytics.error instanceof ApiError && analytics.error.serverMessage
            ? analytics.error.serverMessage
            : 'Please try again in a moment.'}
        </Alert>
      ) : analytics.data ? (
        <>
          <PeriodView period={analytics.data.period} />
          {rules.length > 0 && <TargetingCard rules={rules} breakdown={analytics.data.ruleBreakdown} />}
        </>
      ) : (
        <Loader size="sm" aria-label="Loading analytics" />
      )}
    </Stack>
  );
}

/** A custom range starts as the last 7 days, for the picker to change. */
function customFromToday(): RangeChoice {
  const day = (daysAgo: number) => {
    const date = new Date(Date.now() - daysAgo * 86_400_000);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  };
  return { from: day(6), to: day(0) };
}

/** How the range reads in sentences: "the last 7 days", "27 Oct – 2 Nov". */
function rangeName(period: AnalyticsPeriod): string {
  if (period.range !== 'custom') return rangeNames[period.range];
  const options = { timeZone: period.timeZone };
  const first = period.clicks[0]?.start ?? period.from;
  const last = period.clicks.at(-1)?.start ?? period.from;
  return first === last
    ? dayLabel(first, options)
    : `${dayLabel(first, options)} – ${dayLabel(last, options)}`;
}

function PeriodView({ period }: { period: AnalyticsPeriod }) {
  const options = { timeZone: period.timeZone };
  const unit = period.granularity === 'hour' ? 'hour' : 'day';
  const bars = period.clicks.map(({ start, clicks }) => ({
    key: start,
    label: startLabel(start, period.granularity, options),
    title: startLabel(start, period.granularity, options, true),
    clicks,
  }));
  const clicked = bars.filter(({ clicks }) => clicks > 0);
  const name = rangeName(period);
  // What the bars show, for those who cannot see them.
  const chartSummary =
    clicked.length === 0
      ? `Clicks per ${unit}: none in ${name}`
      : `Clicks per ${unit}: ${clicked.map(({ title, clicks }) => `${clicks} on ${title}`).join(', ')}`;
  const change = changeText(period.change);
  const countries = period.countries.filter(({ label }) => label !== 'Unknown');

  return (
    <Stack gap="md">
      <Group gap="xs" align="baseline">
        <Text fw={700} fz="xl" lh={1.1}>
          {clicksText(period.total)}
        </Text>
        <Text size="sm" c="dimmed">
          in {name}
        </Text>
        <Text
          size="sm"
          c={
            period.change === null || period.change === 0 ? 'dimmed' : period.change > 0 ? 'teal.9' : 'red.9'
          }
        >
          {change === null
            ? period.previous.total === 0 && period.total > 0
              ? '(none in the period before)'
              : ''
            : `${change} against the period before (${clicksText(period.previous.total)})`}
        </Text>
      </Group>
      <Box>
        <Title order={3} fz="sm" mb="xs">
          Clicks per {unit}
        </Title>
        <Box role="img" aria-label={chartSummary}>
          <ClicksChart h={180} bars={bars} />
        </Box>
      </Box>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <ClickBreakdown title="Devices" rows={period.devices} nameOf={deviceName} />
        <ClickBreakdown title="Browsers" rows={period.browsers} />
        <ClickBreakdown title="Operating systems" rows={period.systems} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <ClickBreakdown title="Referrers" rows={period.referrers} nameOf={referrerName} />
        <ClickBreakdown title="Countries" rows={period.countries} nameOf={countryName} />
        <Card withBorder padding="sm" radius="md">
          <Title order={3} fz="sm" mb="xs">
            Map
          </Title>
          {countries.length === 0 ? (
            <Text size="sm" c="dimmed">
              No clicks from a known country in {name}
            </Text>
          ) : (
            <Suspense fallback={<Loader size="sm" aria-label="Loading the map" />}>
              <CountryMap countries={countries} nameOf={countryName} />
            </Suspense>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The clicks each targeting rule sent and those the main target got, over all time (the counts follow a
 * rule's place in the list, as clicks record it).
 */
function TargetingCard({
  rules,
  breakdown,
}: {
  rules: readonly TargetingRule[];
  breakdown: Readonly<Record<string, number>>;
}) {
  return (
    <Card withBorder padding="sm" radius="md" role="group" aria-label="Targeting">
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={3} fz="sm">
          Targeting
        </Title>
        <Text size="xs" c="dimmed">
          All time; the first matching rule wins
        </Text>
      </Group>
      <Stack gap="xs">
        {ruleClicks(rules, breakdown).map((row) => (
          <Group
            key={row.name}
            justify="space-between"
            gap="xs"
            wrap="nowrap"
            role="group"
            aria-label={`${row.name}: ${clicksText(row.clicks)}`}
          >
            <Box miw={0}>
              <Text size="sm" fw={600}>
                {row.name}
                {row.conditions && (
                  <Text span size="sm" fw={400}>
                    {' '}
                    — {row.conditions}
                  </Text>
                )}
              </Text>
              <Text size="xs" c="dimmed" truncate title={row.url ?? undefined}>
                {row.url ?? 'Visitors no rule matched'}
              </Text>
            </Box>
            <Text size="sm" fw={600} style={{ flexShrink: 0 }}>
              {clicksText(row.clicks)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

const clicksText = (clicks: number) => `${clicks.toLocaleString()} ${clicks === 1 ? 'click' : 'clicks'}`;

const deviceName = (label: string) => label.charAt(0).toUpperCase() + label.slice(1);
const referrerName = (label: string) => (label === 'direct' ? 'Direct (no referrer)' : label);

let regionNames: Intl.DisplayNames | undefined;
/** A country's name in the reader's language ("United States" for `US`); `Unknown` stays. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  regionNames ??= new Intl.DisplayNames(undefined, { type: 'region' });
  return regionNames.of(code) ?? code;
}

function ClickBreakdown({
  title,
  rows,
  nameOf = (label) => label,
}: {
  title: string;
  rows: readonly { label: string; clicks: number }[];
  nameOf?: (label: string) => string;
}) {
  const total = rows.reduce((sum, { clicks }) => sum + clicks, 0);
  return (
    <Card withBorder padding="sm" radius="md" role="group" aria-label={title}>
      <Title order={3} fz="sm" mb="xs">
        {title}
      </Title>
      {total === 0 ? (
        <Text size="sm" c="dimmed">
          No clicks in this range
        </Text>
      ) : (
        <Stack gap={6}>
          {rows.map(({ label, clicks }) => (
            <Box key={label}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {nameOf(label)}
                </Text>
                <Text size="sm" fw={600}>
                  {clicks.toLocaleString()}
                </Text>
              </Group>
              <Progress
                value={(clicks / total) * 100}
                size="sm"
                aria-label={`${nameOf(label)}: ${clicksText(clicks)}`}
              />
            </Box>
          ))}
        </Stack>
      )}
    </Card>
  );
}
