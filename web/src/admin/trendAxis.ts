/**
 * The arithmetic and words of the Overview's trend charts, apart from their drawing so that a unit test
 * reads them.
 */

/**
 * Whole-number steps for a chart's axis: about four, each 1, 2 or 5 times a power of ten, from 0 to the
 * first step at or above the largest value (0 to 1 when every value is 0).
 */
export function axisTicks(largest: number): number[] {
  const top = Math.max(Math.ceil(largest), 1);
  const rough = top / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((size) => size >= rough) ?? 1);
  const ticks: number[] = [];
  for (let tick = 0; tick < top + step; tick += step) ticks.push(tick);
  return ticks;
}

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
