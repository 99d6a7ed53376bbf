import type { PaidPeriod, UserEvent } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { type UserCommand, userDecider } from '../accounts/decide';
import type { UserStreamEvent } from '../accounts/user';
import { specFor } from '../testing/spec';
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

describe('the link allowance follows the paid plan the user stream mirrors', () => {
  const given = specFor(userDecider);
  const registered: UserEvent = {
    type: 'UserRegistered',
    data: {
      userId: '01890000-0000-7000-8000-000000000001',
      email: 'enc:v1:x',
      firstName: null,
      lastName: null,
      profileImageUrl: null,
      emailHash: 'h',
      via: 'password',
    },
  };
  const period = (changes: Partial<PaidPeriod> = {}): PaidPeriod => ({
    subscriptionId: 'sub_1',
    plan: 'monthly',
    status: 'past_due',
    periodEnd: END.toISOString(),
    cancelAtPeriodEnd: false,
    ...changes,
  });
  const synced = (version: number, subscriptions: PaidPeriod[]): UserStreamEvent => ({
    type: 'PaidPlanSynced',
    data: { version, subscriptions },
  });
  const fiveLinks: UserStreamEvent[] = Array.from({ length: 5 }, (_, i) => ({
    type: 'LinkSlotTaken',
    data: { linkId: `01890000-0000-7000-9000-${String(i).padStart(12, '0')}`, month: '2027-01' },
  }));
  const sixth = '01890000-0000-7000-9000-000000000099';

  it('lets a past-due user create past 5 links until the period ends, then holds them to Free', () => {
    const history = [registered, synced(2, [period()]), ...fiveLinks];
    given(history)
      .when({ type: 'TakeLinkSlot', linkId: sixth, now: before })
      .then([{ type: 'LinkSlotTaken', data: { linkId: sixth, month: '2027-01' } }]);
    given(history)
      .when({ type: 'TakeLinkSlot', linkId: sixth, now: after })
      .thenThrows({ code: 'SUBSCRIPTION_REQUIRED', status: 403 });
  });

  it('mirrors only a newer version: a copy or an older mirror changes nothing', () => {
    const command: UserCommand = { type: 'SyncPaidPlan', version: 2, subscriptions: [period()] };
    given([registered])
      .when(command)
      .then([synced(2, [period()])]);
    given([registered, synced(2, [period()])])
      .when(command)
      .then([]);
    given([registered, synced(3, [])])
      .when(command)
      .then([]);
  });
});
