/**
 * The link allowances and every sentence that names them, without zod: the landing page and the dashboard
 * import this file (`@sniplink/contracts/links/limits`) so that their bundles hold no zod, and the server's
 * refusal uses the same words. Free counts the links an account holds (deleting one frees its place); Pro
 * counts the links created in a UTC month (deleting one gives nothing back).
 */

/**
 * The allowances' built-in defaults, which FREE_LINK_LIMIT and PRO_LINK_LIMIT replace; the values in force are
 * the admin's settings (`links.free_limit`, `links.pro_monthly_limit`) where set.
 */
export const FREE_LINK_LIMIT = 5;
export const PRO_MONTHLY_LINK_LIMIT = 500;

/** Free: links held (`lifetime`, for as long as they are kept); Pro: links created this UTC month (`month`). */
export type AllowancePeriod = 'lifetime' | 'month';

const links = (count: number) => `${count} ${count === 1 ? 'link' : 'links'}`;

/** "5 links at a time" (Free) or "500 links a month" (Pro): how every page names an allowance. */
export function linkAllowanceText(period: AllowancePeriod, limit: number): string {
  return period === 'month' ? `${links(limit)} a month` : `${links(limit)} at a time`;
}

/** The refusal of a create past the allowance, with what to do about it. */
export function linkLimitReachedMessage(period: AllowancePeriod, limit: number): string {
  return period === 'month'
    ? `Pro accounts can create ${linkAllowanceText('month', limit)}, and this month's are used. More can be created from the 1st of next month (UTC).`
    : `Free accounts can hold ${linkAllowanceText('lifetime', limit)}. Delete a link, or upgrade to Pro to create more.`;
}
