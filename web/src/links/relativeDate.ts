const dayMs = 24 * 60 * 60 * 1000;

/** Midnight of the local calendar day. */
const startOfDay = (date: Date): number =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/**
 * "Today", "1 day ago", "N days ago" below a week, else the locale date. Counted in
 * local calendar days, so a link made late yesterday reads "1 day ago", not "Today".
 */
export function relativeCreationDate(createdAt: string, now: Date, locale?: string): string {
  const created = new Date(createdAt);
  const days = Math.round((startOfDay(now) - startOfDay(created)) / dayMs);
  if (days <= 0) return 'Today';
  if (days === 1) return '1 day ago';
  if (days < 7) return `${days} days ago`;
  return created.toLocaleDateString(locale);
}
