import { describe, expect, it } from 'vitest';
import { currentSubscription, isProAt, type PaidTerms } from './pro';

const END = new Date('2027-02-01T00:00:00.000Z');
const before = new Date(END.getTime() - 1);
const after = END;

type PlanTerms = PaidTerms & { plan: 'monthly' | 'yearly' };

const terms = (changes: Partial<PlanTerms> = {}): PlanTerms => ({
  plan: 'monthly',
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

  it('picks the same one whatever order they come in when two are paid to the same instant', () => {
    const candidates = [
      terms(),
      terms({ plan: 'yearly', cancelAtPeriodEnd: true }),
      terms({ plan: 'yearly' }),
      terms({ plan: 'yearly', status: 'past_due' }),
    ];
    const chosen = currentSubscription(candidates, before);
    expect(chosen).toEqual(terms({ plan: 'yearly' }));
    for (const order of [
      [...candidates].reverse(),
      [candidates[2], candidates[0], candidates[3], candidates[1]],
    ])
      expect(currentSubscription(order as PlanTerms[], before)).toBe(chosen);
  });
});
