import { z } from 'zod';
import { deviceTypes } from './clicks';
import { analyticsRanges, MAX_CUSTOM_RANGE_DAYS } from './ranges';

const breakdown = z.record(z.string(), z.number().int());

const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine(isCalendarDay, { error: 'is not a day of the calendar', abort: true });

/** Whether YYYY-MM-DD names a day that exists (not 2026-02-30); zod runs it on a malformed text too. */
function isCalendarDay(day: string): boolean {
  const at = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(at) && new Date(at).toISOString().startsWith(day);
}

/** Whether this runtime knows the IANA time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/**
 * GET /api/analytics/link/{id}'s query: a range (`range`), or a custom one of whole days (`from` and `to`,
 * both included), counted in the reader's time zone (`tz`, UTC without it). Neither: the last 30 days.
 */
export const linkAnalyticsQuery = z
  .object({
    range: z
      .enum(analyticsRanges, { error: `must be one of ${analyticsRanges.join(', ')}` })
      .optional()
      .describe('The last 24 hours (hourly) or the last 7, 30 or 90 days (daily, today included)'),
    from: calendarDay.optional().describe('First day of a custom range (YYYY-MM-DD), with `to`'),
    to: calendarDay
      .optional()
      .describe('Last day of a custom range (YYYY-MM-DD, today at the latest), with `from`'),
    tz: z
      .string()
      .max(64, 'is not a time zone')
      .refine(isTimeZone, 'is not a time zone (an IANA name such as Europe/Berlin)')
      .optional()
      .describe('The IANA time zone whose days are counted (default UTC)'),
  })
  .superRefine(({ range, from, to }, context) => {
    const problem = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (range && (from || to)) return problem('range', 'cannot be given with from and to');
    if (from && !to) return problem('to', 'is required with from');
    if (to && !from) return problem('from', 'is required with to');
    if (!from || !to) return;
    const days = dayNumber(to) - dayNumber(from) + 1;
    if (days < 1) return problem('to', 'must not be before from');
    if (days > MAX_CUSTOM_RANGE_DAYS)
      problem('from', `must be at most ${MAX_CUSTOM_RANGE_DAYS} days before to`);
  });
export type LinkAnalyticsQuery = z.infer<typeof linkAnalyticsQuery>;

/** Labels with their clicks, most clicked first. */
const labelledCounts = z.array(z.object({ label: z.string(), clicks: z.number().int() }));

/** The clicks of one range, its breakdowns, and the range of the same length before it. */
export const analyticsPeriodSchema = z
  .object({
    range: z.enum([...analyticsRanges, 'custom']),
    timeZone: z.string(),
    granularity: z.enum(['hour', 'day']),
    /** Where the range starts (included) and ends (excluded), as instants. */
    from: z.string(),
    to: z.string(),
    /** One entry per hour or per day of the time zone, oldest first, the empty ones as 0. */
    clicks: z.array(z.object({ start: z.string(), clicks: z.number().int() })),
    total: z.number().int(),
    previous: z.object({ from: z.string(), to: z.string(), total: z.number().int() }),
    /** Per cent more (or fewer, below 0) than the previous range, whole; null when it had none. */
    change: z.number().int().nullable(),
    /** Every device class, those without clicks as 0. */
    devices: z.array(z.object({ label: z.enum(deviceTypes), clicks: z.number().int() })),
    browsers: labelledCounts,
    systems: labelledCounts,
    referrers: labelledCounts,
    /** ISO 3166-1 alpha-2 codes, or `Unknown`. */
    countries: labelledCounts,
  })
  .meta({ id: 'AnalyticsPeriod' });
export type AnalyticsPeriod = z.infer<typeof analyticsPeriodSchema>;

/** GET /api/analytics/link/{id} */
export const linkAnalyticsSchema = z
  .object({
    deviceBreakdown: breakdown,
    referrerBreakdown: breakdown,
    countryBreakdown: breakdown,
    browserBreakdown: breakdown,
    osBreakdown: breakdown,
    /**
     * Clicks per targeting rule: its index in the link's rules (`0` the first) as they were when the click
     * was made, and `main` for the clicks that went to the link's main target.
     */
    ruleBreakdown: breakdown,
    clicksByDay: z.array(z.object({ date: z.string(), clicks: z.number().int() })),
    /** The range asked for (the last 30 days without one); the fields above stay all-time and 30 UTC days. */
    period: analyticsPeriodSchema,
  })
  .meta({ id: 'LinkAnalytics' });
export type LinkAnalytics = z.infer<typeof linkAnalyticsSchema>;

/** GET /api/analytics/user */
export const userAnalyticsSchema = z
  .object({ totalLinks: z.number().int(), totalClicks: z.number().int() })
  .meta({ id: 'UserAnalytics' });
export type UserAnalytics = z.infer<typeof userAnalyticsSchema>;
