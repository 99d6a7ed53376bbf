import { FREE_LINK_LIMIT, linkAllowance, PRO_MONTHLY_LINK_LIMIT } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { allowanceFigures } from './linkAllowance';

const DEFAULT_LIMITS = { free: FREE_LINK_LIMIT, proMonthly: PRO_MONTHLY_LINK_LIMIT };

describe('allowanceFigures', () => {
  it('reads a Free account as links held at a time, whatever was made this month', () => {
    // A Free user who made 6 links this month and deleted 3 holds 3: "Links held 3 / 5", 2 remaining.
    const figures = allowanceFigures(linkAllowance(false, 6, 3, DEFAULT_LIMITS));
    expect(figures).toEqual({
      monthLabel: undefined,
      lineLabel: 'Links held',
      ofLimit: 'of 5 links at a time',
      usedOfLimit: '3 / 5',
      description: '3 of 5 links at a time used',
      percentUsed: 60,
      used: 3,
      remaining: 2,
    });
  });

  it('reads a Pro account as links created this month against the limit in force, whatever is held', () => {
    const figures = allowanceFigures(linkAllowance(true, 12, 800, { free: 5, proMonthly: 14 }));
    expect(figures).toMatchObject({
      monthLabel: 'Created This Month',
      lineLabel: 'Created this month',
      ofLimit: 'of 14 links a month',
      usedOfLimit: '12 / 14',
      used: 12,
      remaining: 2,
    });
  });

  it('keeps the bar full, not past it, for a Free account holding more than 5 (kept from Pro)', () => {
    const figures = allowanceFigures(linkAllowance(false, 0, 40, DEFAULT_LIMITS));
    expect(figures).toMatchObject({ usedOfLimit: '40 / 5', percentUsed: 100, remaining: 0 });
  });
});
