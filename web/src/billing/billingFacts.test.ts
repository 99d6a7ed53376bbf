import { describe, expect, it } from 'vitest';
import { periodLine, planNameOf } from './billingFacts';

describe('planNameOf', () => {
  it('names Free, Pro Monthly and Pro Yearly', () => {
    expect(planNameOf({ subscriptionStatus: 'inactive', subscriptionPlan: null })).toBe('Free');
    expect(planNameOf({ subscriptionStatus: 'active', subscriptionPlan: 'monthly' })).toBe('Pro Monthly');
    expect(planNameOf({ subscriptionStatus: 'active', subscriptionPlan: 'yearly' })).toBe('Pro Yearly');
  });

  it('is Free once the subscription has ended, whatever plan it was', () => {
    expect(planNameOf({ subscriptionStatus: 'inactive', subscriptionPlan: 'yearly' })).toBe('Free');
  });
});

describe('periodLine', () => {
  const isoDay = (iso: string) => iso.slice(0, 10);

  it('says when the plan renews, or when it ends once cancelled at the period end', () => {
    const periodEnd = '2027-03-05T12:00:00.000Z';
    expect(periodLine({ periodEnd, cancelAtPeriodEnd: false }, isoDay)).toBe('Renews on 2027-03-05');
    expect(periodLine({ periodEnd, cancelAtPeriodEnd: true }, isoDay)).toBe('Ends on 2027-03-05');
  });

  it('says nothing without a period', () => {
    expect(periodLine({ periodEnd: null, cancelAtPeriodEnd: false }, isoDay)).toBeNull();
  });
});
