import { describe, expect, it } from 'vitest';
import { linksRemainingFor, usedLinksOf } from './linkAllowance';

const free = { subscriptionStatus: 'inactive' as const, linksCreatedThisMonth: 9 };
const pro = { subscriptionStatus: 'active' as const, linksCreatedThisMonth: 120 };

describe('linksRemainingFor', () => {
  it('is 5 minus the links held on Free', () => {
    expect(linksRemainingFor(free, 0)).toBe(5);
    expect(linksRemainingFor(free, 3)).toBe(2);
    expect(usedLinksOf(free, 3)).toBe(3);
  });

  it('never goes below zero', () => {
    expect(linksRemainingFor(free, 5)).toBe(0);
    expect(linksRemainingFor(free, 7)).toBe(0);
    expect(linksRemainingFor({ ...pro, linksCreatedThisMonth: 501 }, 0)).toBe(0);
  });

  it('is 500 minus the links made this month on Pro, whatever is held', () => {
    expect(linksRemainingFor(pro, 800)).toBe(380);
    expect(usedLinksOf(pro, 800)).toBe(120);
  });
});
