import { describe, expect, it } from 'vitest';
import { currentSubscription, isProAt, type PaidTerms } from './pro';

const END = new Date('2027-02-01T00:00:00.000Z');
const before = new Date(END.getTime() - 1);
const after = END;

const terms = (changes: Partial<PaidTerms> = {}): PaidTerms => ({
  status: 'active',
  periodEnd: END,
  cancelAtPeriodEnd: false,
  ...changes,
});

describe('Pro over time', () => {
  it('is Pro while active or trialing, also past the period end while the renewal is not reported', () => {
    for (const status of ['active', 'trialing'] as const) {
      expect(isProAt(terms({ status }), before)).toBe(true);
      expect(isProAt(terms({ status }), after)).toBe(true);
    }
  });

  it('is Pro until the period ends when set to cancel then, Free from that instant', () => {
    expect(isProAt(terms({ cancelAtPeriodEnd: true }), before)).toBe(true);
    expect(isProAt(terms({ cancelAtPeriodEnd: true }), after)).toBe(false);
  });

  it('is Pro while past due until the period ends, Free from that instant', () => {
    expect(isProAt(terms({ status: 'past_due' }), before)).toBe(true);
    expect(isProAt(terms({ status: 'past_due' }), after)).toBe(false);
  });

  it('is Free when unpaid, paused, canceled or never paid', () => {
    for (const status of ['unpaid', 'paused', 'canceled', 'incomplete', 'incomplete_expired'] as const) {
      expect(isProAt(terms({ status }), before)).toBe(false);
    }
  });

  it('shows the subscription paid furthest ahead among those that make the user Pro', () => {
    const later = terms({ periodEnd: new Date('2027-06-01T00:00:00.000Z') });
    const ended = terms({ status: 'canceled', periodEnd: new Date('2028-01-01T00:00:00.000Z') });
    expect(currentSubscription([terms(), later, ended], before)).toBe(later);
    expect(currentSubscription([terms({ status: 'past_due' })], after)).toBeUndefined();
  });
});
