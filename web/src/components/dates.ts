/**
 * Dates as the reader's locale writes them (`Intl`), never a fixed format: a date within the current year
 * without its year ("12 March", "March 12"), any other with it ("12 March 2027").
 */
export function readableDate(
  when: string | Date,
  {
    now = new Date(),
    locale,
    month = 'long',
  }: { now?: Date; locale?: string; month?: 'long' | 'short' } = {},
): string {
  const date = new Date(when);
  const thisYear = date.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month,
    ...(thisYear ? {} : { year: 'numeric' }),
  }).format(date);
}

const dayMs = 24 * 60 * 60 * 1000;

/** Midnight of the local calendar day. */
const startOfDay = (date: Date): number =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/**
 * "today", "yesterday", "3 days ago" below a week (in the reader's language), else the date
 * ("12 Nov", "3 Mar 2025"). Counted in local calendar days, so a link made late yesterday reads
 * "yesterday", not "today".
 */
export function relativeDay(when: string | Date, now: Date, locale?: string): string {
  const date = new Date(when);
  const days = Math.round((startOfDay(now) - startOfDay(date)) / dayMs);
  if (days < 7) {
    return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-Math.max(0, days), 'day');
  }
  return readableDate(date, { now, month: 'short', ...(locale ? { locale } : {}) });
}
