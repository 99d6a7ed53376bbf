import type { LinkAllowance } from '@sniplink/contracts';

/**
 * How the one allowance reads (computed by the server): Free counts the links held, for
 * good ("Total Used", "Links used 3 / 5"); Pro the links made this month ("This Month", "Links this month
 * 12 / 500"). The dashboard's cards, the profile and the create refusal all show these figures.
 */
export function allowanceFigures({ period, used, limit, remaining }: LinkAllowance) {
  const monthly = period === 'month';
  return {
    statLabel: monthly ? 'This Month' : 'Total Used',
    lineLabel: monthly ? 'Links this month' : 'Links used',
    /** "3 / 5" */
    usedOfLimit: `${used} / ${limit}`,
    /** The progress bar's name: "3 of 5 links used" (", this month" on Pro). */
    description: `${used} of ${limit} links used${monthly ? ' this month' : ''}`,
    percentUsed: limit > 0 ? Math.min(100, (used / limit) * 100) : 100,
    used,
    remaining,
  };
}
