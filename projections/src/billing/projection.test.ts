import type { BillingEvent, PaidPeriod, PaidPlanEvent, SubscriptionFacts } from '@sniplink/contracts';
import { events } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { paidPlansProjection } from './paid-plans-projection';
import { billingProjection } from './projection';
import { billingOfUser, recordedOwnerOfCustomer, revenueOverview } from './queries';

const ADA = '01890000-0000-7000-8000-00000000000a';
const BOB = '01890000-0000-7000-8000-00000000000b';
const CAROL = '01890000-0000-7000-8000-00000000000c';
const DAN = '01890000-0000-7000-8000-00000000000d';
const FEB = '2027-02-01T00:00:00.000Z';
const MAR = '2027-03-01T00:00:00.000Z';
const JAN_15 = new Date('2027-01-15T00:00:00.000Z');

const facts = (id: string, changes: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
  providerEventId: `evt_${uuidv7()}`,
  subscriptionId: id,
  customerId: `cus_${id}`,
  plan: 'monthly',
  status: 'active',
  periodEnd: FEB,
  cancelAtPeriodEnd: false,
  amount: 200,
  currency: 'usd',
  ...changes,
});

/**
 * Ada: monthly, renewed, then past due until March. Bob: yearly, set to cancel at February's end. Carol:
 * monthly, canceled. Dan: two monthly subscriptions at once (two checkouts in two tabs).
 */
const histories: Record<string, BillingEvent[]> = {
  [ADA]: [
    { type: 'BillingCustomerRecorded', data: { provider: 'stripe', customerId: 'cus_ada' } },
    { type: 'SubscriptionActivated', data: facts('ada', { customerId: 'cus_ada' }) },
    { type: 'SubscriptionRenewed', data: facts('ada', { customerId: 'cus_ada', periodEnd: MAR }) },
    {
      type: 'PaymentFailed',
      data: facts('ada', { customerId: 'cus_ada', periodEnd: MAR, status: 'past_due' }),
    },
  ],
  [BOB]: [
    { type: 'SubscriptionActivated', data: facts('bob', { plan: 'yearly', amount: 2000 }) },
    {
      type: 'CancellationScheduled',
      data: facts('bob', { plan: 'yearly', amount: 2000, cancelAtPeriodEnd: true }),
    },
  ],
  [CAROL]: [
    { type: 'SubscriptionActivated', data: facts('carol') },
    { type: 'SubscriptionCanceled', data: facts('carol', { status: 'canceled' }) },
  ],
  [DAN]: [
    { type: 'SubscriptionActivated', data: facts('dan-1') },
    { type: 'SubscriptionActivated', data: facts('dan-2') },
  ],
};

/** Each user stream's last mirror (`PaidPlanSynced`) of those histories: the subscriptions that have not ended. */
const period = (subscriptionId: string, changes: Partial<PaidPeriod> = {}): PaidPeriod => ({
  subscriptionId,
  plan: 'monthly',
  status: 'active',
  periodEnd: FEB,
  cancelAtPeriodEnd: false,
  ...changes,
});
const mirrors: Record<string, PaidPlanEvent['data']> = {
  [ADA]: { version: 3, subscriptions: [period('ada', { status: 'past_due', periodEnd: MAR })] },
  [BOB]: { version: 2, subscriptions: [period('bob', { plan: 'yearly', cancelAtPeriodEnd: true })] },
  [CAROL]: { version: 2, subscriptions: [] },
  [DAN]: { version: 2, subscriptions: [period('dan-1'), period('dan-2')] },
};

/** Each user's billing stream, its events a second apart from 2027-01-01 00:00 UTC, then the user stream's mirror. */
const given = Object.entries(histories).flatMap(([userId, history]) => {
  const mirror = mirrors[userId];
  if (!mirror) throw new Error(`No mirror for ${userId}`);
  return [
    ...history.map((event, revision) => ({
      streamId: `billing-${userId}`,
      event,
      occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, revision)),
    })),
    { streamId: `user-${userId}`, event: events.paidPlanSynced(mirror) },
  ];
});

describe('billing projection', () => {
  const spec = projectionSpec([billingProjection, paidPlansProjection]);
  beforeAll(() => spec.given(given));

  it("holds a user's customer and the subscriptions that have not ended", async () => {
    const { db } = spec;
    expect(await billingOfUser(db, ADA)).toEqual({
      customerId: 'cus_ada',
      subscriptions: [
        {
          subscriptionId: 'ada',
          plan: 'monthly',
          status: 'past_due',
          periodEnd: new Date(MAR),
          cancelAtPeriodEnd: false,
          paymentFailed: true,
        },
      ],
    });
    expect(await billingOfUser(db, CAROL)).toEqual({ customerId: null, subscriptions: [] });
    expect(await recordedOwnerOfCustomer(db, 'cus_ada')).toBe(ADA);
    expect(await recordedOwnerOfCustomer(db, 'cus_nobody')).toBeNull();
  });

  it('counts active subscriptions, paid users and monthly revenue as Pro stands at the instant asked', async () => {
    const { db } = spec;
    // Mid-January: Ada (past due, until March), Bob (yearly, until February), Dan twice; Carol ended.
    expect(await revenueOverview(db, JAN_15)).toEqual({
      activeSubscriptions: 4,
      paidUsers: 3,
      // 200 + 2000 / 12 + 200 + 200 = 766.67, rounded once.
      monthlyRecurringRevenueCents: 767,
    });
    // February: Bob's cancellation took effect; Dan's active subscriptions await their renewal.
    expect(await revenueOverview(db, new Date(FEB))).toEqual({
      activeSubscriptions: 3,
      paidUsers: 2,
      monthlyRecurringRevenueCents: 600,
    });
    // March: Ada's period ended past due.
    expect(await revenueOverview(db, new Date(MAR))).toEqual({
      activeSubscriptions: 2,
      paidUsers: 1,
      monthlyRecurringRevenueCents: 400,
    });
  });
});
