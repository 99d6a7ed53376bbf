import type { AnalyticsPeriod } from '@sniplink/contracts';

interface LabelOptions {
  timeZone: string;
  /** The reader's locale (the browser's without it). */
  locale?: string | undefined;
  now?: Date;
}

/**
 * A day as the reader's locale writes it ("27 Nov", "Nov 27"), with its year only when that is not the
 * current year ("27 Nov 2025").
 */
export function dayLabel(start: string, { timeZone, locale, now = new Date() }: LabelOptions): string {
  const at = new Date(start);
  const year = (date: Date) => new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' }).format(date);
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    day: 'numeric',
    month: 'short',
    ...(year(at) === year(now) ? {} : { year: 'numeric' }),
  }).format(at);
}

/** An hour as the reader's locale writes it ("14:00", "2 PM"). */
export function hourLabel(start: string, { timeZone, locale }: LabelOptions): string {
  return new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' }).format(
    new Date(start),
  );
}

/** An hour or a day of a period, named for its granularity: the day of an hour too, for a tooltip. */
export function startLabel(
  start: string,
  granularity: AnalyticsPeriod['granularity'],
  options: LabelOptions,
  withDay = false,
): string {
  if (granularity === 'day') return dayLabel(start, options);
  return withDay ? `${dayLabel(start, options)}, ${hourLabel(start, options)}` : hourLabel(start, options);
}

/** Which bars get a name under them: about `names` of them, counted back from the last, always the last. */
export function namedBars(count: number, names = 6): (index: number) => boolean {
  const every = Math.max(1, Math.ceil(count / names));
  return (index) => (count - 1 - index) % every === 0;
}

/** "+25 %", "−40 %", "no change"; null when there is nothing to compare with. */
export function changeText(change: number | null, locale?: string): string | null {
  if (change === null) return null;
  if (change === 0) return 'no change';
  return new Intl.NumberFormat(locale, {
    style: 'percent',
    signDisplay: 'always',
    maximumFractionDigits: 0,
  }).format(change / 100);
}
