import { premiumCategories } from '@sniplink/contracts/premium-slugs';
import { describe, expect, it } from 'vitest';
import { categoryLook } from './categoryLooks';
import { centsOf, dollars, purchaseActionFor, purchaseShown, slugsOfLines } from './premiumFacts';

describe('premium slug facts', () => {
  it('shows a refunded purchase as refunded, with the amount given back, never as processing', () => {
    expect(purchaseShown({ status: 'refunded', slug: 'deals', amount: 2500 })).toEqual({
      title: 'Payment Refunded',
      message:
        'Your payment for "deals" was refunded in full, so the premium slug is not yours. Browse the marketplace for another.',
      status: 'Refunded',
      amount: '$25.00',
    });
    expect(purchaseShown({ status: 'complete', slug: 'deals', amount: 2500 })).toMatchObject({
      title: 'Purchase Successful!',
      status: 'Complete',
      amount: '$25.00',
    });
    expect(purchaseShown({ status: 'processing', slug: 'deals', amount: 0 })).toMatchObject({
      title: 'Payment Processing',
      status: 'Processing',
      amount: '—',
    });
  });

  it('shows cents as dollars with two decimals', () => {
    expect(dollars(2500)).toBe('$25.00');
    expect(dollars(1999)).toBe('$19.99');
    expect(dollars(123456)).toBe('$1,234.56');
  });

  it('turns dollars typed into cents, rounded', () => {
    expect(centsOf('25')).toBe(2500);
    expect(centsOf('19.999')).toBe(2000);
    expect(centsOf(0.1 + 0.2)).toBe(30);
    expect(centsOf('')).toBeNaN();
    expect(centsOf('abc')).toBeNaN();
  });

  it('reads one slug per line, trimmed, blank lines dropped', () => {
    expect(slugsOfLines('  alpha \n\n beta\r\n\t\ngamma  ')).toEqual(['alpha', 'beta', 'gamma']);
    expect(slugsOfLines(' \n \n')).toEqual([]);
  });

  it('gives each stored category a look through its marketplace key', () => {
    for (const category of premiumCategories) expect(categoryLook(category).icon).toBeTruthy();
    expect(categoryLook('number-patterns').label).toBe('Number Patterns');
  });

  it('offers login, upgrade, the purchase or the limit reached, by viewer', () => {
    expect(purchaseActionFor({ signedIn: false }).label).toBe('Login to Purchase');
    expect(purchaseActionFor({ signedIn: true, pro: false, owned: 0 }).label).toBe('Upgrade to Pro');
    expect(purchaseActionFor({ signedIn: true, pro: true, owned: 2 }).label).toBe('Purchase');
    expect(purchaseActionFor({ signedIn: true, pro: true, owned: 3 })).toEqual({
      kind: 'limit',
      label: 'Limit Reached (3/3)',
    });
  });
});
