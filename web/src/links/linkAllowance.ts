import type { LinkAllowance } from '@sniplink/contracts';
import { linkAllowanceText } from '@sniplink/contracts/links/limits';

/**
 * How the one allowance reads (computed by the server, with the limits in force): Free counts the links
 * held ("Links held 3 / 5", "of 5 links at a time"), the same number as the dashboard's Total Links, so it
 * has no card of its own; Pro counts the links created this month, deleted ones too ("Created This Month",
 * "of 500 links a month"). The dashboard's cards, the profile and the create form all show these figures.
 */
export function allowanceFigures({ period, used, limit, remaining }: LinkAllowance) {
  const monthly = period === 'month';
  return {
    /** The card of the month's creations, on Pro only (on Free, `used` is Total Links). */
    monthLabel: monthly ? 'Created This Month' : undefined,
    lineLabel: monthly ? 'Created this month' : 'Links held',
    /** "of 5 links at a time", "of 500 links a month": under Links Remaining. */
    ofLimit: `of ${linkAllowanceText(period, limit)}`,
    /** "3 / 5" */
    usedOfLimit: `${used} / ${limit}`,
    /** The progress bar's name: "3 of 5 links at a time used". */
    description: `${used} of ${linkAllowanceText(period, limit)} used`,
    percentUsed: limit > 0 ? Math.min(100, (used / limit) * 100) : 100,
    used,
    remaining,
  };
}
