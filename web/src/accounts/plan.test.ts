import { describe, expect, it } from 'vitest';
import { planStatusText } from './plan';

const billing = { periodEnd: null, cancelAtPeriodEnd: false, paymentFailed: false, canManage: false };
const day = (iso: string) => `[${iso.slice(0, 10)}]`;

describe('planStatusText', () => {
  it('says "Free plan" for an ordinary Free account, never an internal state', () => {
    expect(planStatusText({ subscriptionStatus: 'inactive', billing }, day)).toBe('Free plan');
  });

  it('says until when Pro lasts, or when it renews', () => {
    const periodEnd = '2027-03-12T00:00:00.000Z';
    expect(
      planStatusText(
        { subscriptionStatus: 'active', billing: { ...billing, periodEnd, cancelAtPeriodEnd: true } },
        day,
      ),
    ).toBe('Pro until [2027-03-12]');
    expect(planStatusText({ subscriptionStatus: 'active', billing: { ...billing, periodEnd } }, day)).toBe(
      'Pro, renews on [2027-03-12]',
    );
    expect(planStatusText({ subscriptionStatus: 'active', billing }, day)).toBe('Pro plan');
  });

  it('says a suspended account is suspended', () => {
    expect(planStatusText({ subscriptionStatus: 'suspended', billing }, day)).toBe(
      'Suspended: please contact support',
    );
  });
});
