import { TZDate } from '@date-fns/tz';
import {
  type AnalyticsPeriod,
  type AnalyticsRange,
  deviceTypes,
  type LinkAnalyticsQuery,
} from '@sniplink/contracts';
import { ValidationError } from '@sniplink/domain';
import type { ClicksWindow, WindowClicks } from '@sniplink/projections';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DAYS_OF: Record<Exclude<AnalyticsRange, '24h'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

/**
 * A range resolved to instants: where each hour or day of it starts (in the reader's time zone), where it
 * ends, and where the range of the same length before it starts.
 */
export interface ResolvedPeriod extends ClicksWindow {
  range: AnalyticsPeriod['range'];
  timeZone: string;
  granularity: AnalyticsPeriod['granularity'];
  /** Where each hour or day starts, oldest first. */
  starts: Date[];
}

/**
 * The query's range as of `now`: the last 24 whole hours (this one included), the last N days of the time
 * zone (today included), or the custom days `from`-`to`. A custom range ending after today is refused.
 */
export function resolvePeriod(query: LinkAnalyticsQuery, now: Date): ResolvedPeriod {
  const timeZone = query.tz ?? 'UTC';
  const range = query.from ? 'custom' : (query.range ?? '30d');
  if (range === '24h') {
    const last = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    const starts = Array.from({ length: 24 }, (_, i) => new Date(last - (23 - i) * HOUR_MS));
    const from = starts[0] as Date;
    return {
      range,
      timeZone,
      granularity: 'hour',
      starts,
      from,
      to: new Date(last + HOUR_MS),
      previousFrom: new Date(from.getTime() - 24 * HOUR_MS),
    };
  }
  const today = dayNumberIn(now, timeZone);
  const [first, last] =
    range === 'custom'
      ? [dayNumberOf(query.from as string), dayNumberOf(query.to as string)]
      : [today - DAYS_OF[range] + 1, today];
  if (last > today) throw new ValidationError('to must not be after today', 'to');
  const length = last - first + 1;
  const dayStart = (day: number) => midnightIn(day, timeZone);
  return {
    range,
    timeZone,
    granularity: 'day',
    starts: Array.from({ length }, (_, i) => dayStart(first + i)),
    from: dayStart(first),
    to: dayStart(last + 1),
    previousFrom: dayStart(first - length),
  };
}

/** The period's answer from the clicks counted in its window. */
export function periodAnswer(period: ResolvedPeriod, counted: WindowClicks): AnalyticsPeriod {
  const perStart = period.starts.map(() => 0);
  // Each hour goes to the hour or day it starts in: the last start at or before it.
  let index = 0;
  for (const { hour, clicks } of counted.hours) {
    while (index + 1 < period.starts.length && (period.starts[index + 1] as Date) <= hour) index++;
    perStart[index] = (perStart[index] ?? 0) + clicks;
  }
  const total = perStart.reduce((sum, clicks) => sum + clicks, 0);
  const of = (dimension: WindowClicks['labels'][number]['dimension']) =>
    counted.labels
      .filter((row) => row.dimension === dimension)
      .map(({ label, clicks }) => ({ label, clicks }))
      .sort(mostClickedFirst);
  const devices = of('device');
  return {
    range: period.range,
    timeZone: period.timeZone,
    granularity: period.granularity,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    clicks: period.starts.map((start, i) => ({ start: start.toISOString(), clicks: perStart[i] ?? 0 })),
    total,
    previous: {
      from: period.previousFrom.toISOString(),
      to: period.from.toISOString(),
      total: counted.previousTotal,
    },
    change: percentChange(total, counted.previousTotal),
    devices: deviceTypes
      .map((label) => ({ label, clicks: devices.find((row) => row.label === label)?.clicks ?? 0 }))
      .sort(mostClickedFirst),
    browsers: of('browser'),
    systems: of('os'),
    referrers: of('referrer'),
    countries: of('country'),
  };
}

/** Most clicks first; a tie in alphabetical order, whatever the database's collation. */
const mostClickedFirst = (a: { label: string; clicks: number }, b: { label: string; clicks: number }) =>
  b.clicks - a.clicks || a.label.localeCompare(b.label, 'en');

/** Whole per cent from `previous` to `current`; null when there was nothing before to compare with. */
export function percentChange(current: number, previous: number): number | null {
  return previous === 0 ? null : Math.round(((current - previous) / previous) * 100);
}

/** Days since 1970-01-01 of a calendar day written YYYY-MM-DD. */
const dayNumberOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** Days since 1970-01-01 of the calendar day it is at `instant` in the time zone. */
function dayNumberIn(instant: Date, timeZone: string): number {
  const local = new TZDate(instant.getTime(), timeZone);
  return Date.UTC(local.getFullYear(), local.getMonth(), local.getDate()) / DAY_MS;
}

/** The instant a calendar day (days since 1970-01-01) starts in the time zone. */
function midnightIn(day: number, timeZone: string): Date {
  const date = new Date(day * DAY_MS);
  return new Date(
    new TZDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), timeZone).getTime(),
  );
}
