import { type AnalyticsRange, analyticsRanges, type LinkAnalyticsQuery } from '@sniplink/contracts';
import { z } from 'zod';

/** A custom range in the address: its first and last day, `2026-11-01..2026-11-20`. */
const CUSTOM = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

/** The range a link's analytics show: one of the API's, or custom days (both included). */
export type RangeChoice = AnalyticsRange | { from: string; to: string };

/** Without a range in the address: the last 30 days. */
export const DEFAULT_RANGE: AnalyticsRange = '30d';

/**
 * The range in the address (`?range=7d`, `?range=2026-11-01..2026-11-20`); anything else is no range, the
 * default, never an error page (the API still says what is wrong with a day that does not exist).
 */
export const rangeParam = z
  .string()
  .refine((text) => (analyticsRanges as readonly string[]).includes(text) || CUSTOM.test(text))
  .optional()
  .catch(undefined);

export function rangeOf(param: string | undefined): RangeChoice {
  const custom = param ? CUSTOM.exec(param) : null;
  if (custom) return { from: custom[1] as string, to: custom[2] as string };
  return (analyticsRanges as readonly string[]).includes(param ?? '')
    ? (param as AnalyticsRange)
    : DEFAULT_RANGE;
}

/** What the address holds for a range: nothing for the default. */
export function rangeParamOf(choice: RangeChoice): string | undefined {
  if (typeof choice !== 'string') return `${choice.from}..${choice.to}`;
  return choice === DEFAULT_RANGE ? undefined : choice;
}

/** The API's query for a range, counted in the reader's time zone. */
export function rangeQuery(choice: RangeChoice, timeZone = readerTimeZone()): LinkAnalyticsQuery {
  return typeof choice === 'string' ? { range: choice, tz: timeZone } : { ...choice, tz: timeZone };
}

/** The reader's IANA time zone as the browser knows it. */
export const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** How a range is named in sentences: "the last 7 days", "1 Nov – 20 Nov". */
export const rangeNames: Record<AnalyticsRange, string> = {
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
  '30d': 'the last 30 days',
  '90d': 'the last 90 days',
};
