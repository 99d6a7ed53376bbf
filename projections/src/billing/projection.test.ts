import type { BillingEvent, PaidPeriod, PaidPlanEvent, SubscriptionFacts } from '@sniplink/contracts';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadModels } from '../read-models';
import { readEntireLog, snapshot } from '../testing/fixtures';
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

describe('billing projection', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    for (const [userId, events] of Object.entries(histories)) {
      for (const [revision, event] of events.entries()) {
        await stack.eventStore.appendToStream(
          `billing-${userId}`,
          [{ id: uuidv7(), ...event, occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, revision)) }],
          revision === 0 ? 'no_stream' : BigInt(revision - 1),
        );
      }
      const synced = { id: uuidv7(), type: 'PaidPlanSynced', data: mirrors[userId], occurredAt: new Date() };
      await stack.eventStore.appendToStream(`user-${userId}`, [synced], 'no_stream');
    }
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await sql`TRUNCATE rm_billing_customers, rm_billing_subscriptions, rm_paid_plans, rm_paid_periods`.execute(
      db,
    );
    const events = await readEntireLog(stack.eventStore);
    for (let i = 0; i < events.length; i += batchSize) {
      const batch = events.slice(i, i + batchSize);
      for (let t = 0; t < times; t++) {
        await db.transaction().execute(async (trx) => {
          for (const projection of [billingProjection, paidPlansProjection]) {
            const handled = batch.filter((event) => projection.handles.includes(event.type));
            await projection.apply(withReadModels(trx), handled);
          }
        });
      }
    }
    return [
      await snapshot(db, 'rm_billing_customers', 'user_id'),
      await snapshot(db, 'rm_billing_subscriptions', 'subscription_id'),
      await snapshot(db, 'rm_paid_plans', 'user_id'),
      await snapshot(db, 'rm_paid_periods', 'subscription_id'),
    ];
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
  });

  it("holds a user's customer and the subscriptions that have not ended", async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
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
    await applyInBatches(50, 1);
    const { db } = stack.database;
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
