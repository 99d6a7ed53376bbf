import { FREE_LINK_LIMIT, linkAllowance, PRO_MONTHLY_LINK_LIMIT } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { allowanceFigures } from './linkAllowance';

const DEFAULT_LIMITS = { free: FREE_LINK_LIMIT, proMonthly: PRO_MONTHLY_LINK_LIMIT };

describe('allowanceFigures', () => {
  it('reads a Free account as links held against 5, whatever was made this month', () => {
    // A Free user who made 6 links this month and deleted 3 holds 3: "Links used 3 / 5", 2 remaining.
    const figures = allowanceFigures(linkAllowance(false, 6, 3, DEFAULT_LIMITS));
    expect(figures).toEqual({
      statLabel: 'Total Used',
      lineLabel: 'Links used',
      usedOfLimit: '3 / 5',
      description: '3 of 5 links used',
      percentUsed: 60,
      used: 3,
      remaining: 2,
    });
  });

  it('reads a Pro account as links made this month against 500, whatever is held', () => {
    const figures = allowanceFigures(linkAllowance(true, 120, 800, DEFAULT_LIMITS));
    expect(figures).toMatchObject({
      statLabel: 'This Month',
      lineLabel: 'Links this month',
      usedOfLimit: '120 / 500',
      description: '120 of 500 links used this month',
      percentUsed: 24,
      used: 120,
      remaining: 380,
    });
  });

  it('keeps the bar full, not past it, for a Free account holding more than 5 (kept from Pro)', () => {
    const figures = allowanceFigures(linkAllowance(false, 0, 40, DEFAULT_LIMITS));
    expect(figures).toMatchObject({ usedOfLimit: '40 / 5', percentUsed: 100, remaining: 0 });
  });
});
