/**
 * The arithmetic and words of the Overview's trend charts, apart from their drawing so that a unit test
 * reads them.
 */

/** A `YYYY-MM-DD` day as the reader's locale says it, without the year within the current year ("Nov 28"). */
export function dayLabel(date: string, locale?: string, now: Date = new Date()): string {
  const day = new Date(`${date}T00:00:00Z`);
  const sameYear = day.getUTCFullYear() === now.getUTCFullYear();
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(day);
}
