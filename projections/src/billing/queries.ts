import {
  type PlanId,
  type ProviderSubscriptionStatus,
  planIds,
  providerSubscriptionStatuses,
} from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { withReadModels } from '../read-models';

/** A subscription that has not ended, as the user JSON needs it. */
export interface BilledSubscription {
  subscriptionId: string;
  plan: PlanId;
  status: ProviderSubscriptionStatus;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  paymentFailed: boolean;
}

export interface UserBilling {
  /** The user's customer at the payment provider, once one was recorded. */
  customerId: string | null;
  /** Subscriptions that have not ended; whether one makes the user Pro depends on the instant asked. */
  subscriptions: BilledSubscription[];
}

/** What the user JSON's `subscriptionStatus`, `subscriptionPlan` and `billing` are made of. */
export async function billingOfUser(db: Kysely<Database>, userId: string): Promise<UserBilling> {
  const [customer, subscriptions] = await Promise.all([
    withReadModels(db)
      .selectFrom('rm_billing_customers')
      .select('customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    liveSubscriptionsOf(db, [userId]),
  ]);
  return { customerId: customer?.customer_id ?? null, subscriptions: subscriptions.get(userId) ?? [] };
}

/**
 * The subscriptions that have not ended of each of these users (the admin's list of users: one query a
 * page), as the user stream last mirrored them: the events the link allowance is decided from.
 */
export async function liveSubscriptionsOf(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, BilledSubscription[]>> {
  const byUser = new Map<string, BilledSubscription[]>();
  if (userIds.length === 0) return byUser;
  const rows = await withReadModels(db)
    .selectFrom('rm_paid_periods')
    .select(['user_id', 'subscription_id', 'plan', 'status', 'period_end', 'cancel_at_period_end'])
    .where('user_id', 'in', userIds)
    .orderBy('subscription_id')
    .execute();
  for (const row of rows) {
    if (!isPlan(row.plan) || !isStatus(row.status)) continue;
    const subscription: BilledSubscription = {
      subscriptionId: row.subscription_id,
      plan: row.plan,
      status: row.status,
      periodEnd: row.period_end,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      paymentFailed: isPaymentFailing(row.status),
    };
    byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), subscription]);
  }
  return byUser;
}

/**
 * The user the billing read model first recorded this customer on (the earliest recorded), if any. Only
 * for a customer not claimed yet: a binding made before billing claims existed stays that user's.
 */
export async function recordedOwnerOfCustomer(
  db: Kysely<Database>,
  customerId: string,
): Promise<string | null> {
  const row = await withReadModels(db)
    .selectFrom('rm_billing_customers')
    .select('user_id')
    .where('customer_id', '=', customerId)
    .orderBy('recorded_at')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The user the billing read model holds this subscription for, if any (as `recordedOwnerOfCustomer`). */
export async function recordedOwnerOfSubscription(
  db: Kysely<Database>,
  subscriptionId: string,
): Promise<string | null> {
  const row = await withReadModels(db)
    .selectFrom('rm_billing_subscriptions')
    .select('user_id')
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The admin Overview's money figures. */
export interface RevenueOverview {
  /** Subscriptions that make their user Pro at the instant asked (past due ones until their period ends). */
  activeSubscriptions: number;
  /** Users with at least one such subscription (an operator's grant is not paid). */
  paidUsers: number;
  /**
   * Those subscriptions' price per month, in cents: a monthly one's amount (200), a yearly one's amount
   * divided by 12 (2000 / 12 = 166.67); the sum is rounded once, to the nearest cent (a monthly and a
   * yearly subscription: 367). The prices are all in one currency (USD).
   */
  monthlyRecurringRevenueCents: number;
}

/**
 * Pro at `now`, as `isProAt` (services/domain/src/billing/pro.ts) says it: active or trialing unless set to
 * end at a period end that has passed; past due until the period ends. A condition on rm_paid_periods'
 * rows (the admin Overview's figures use it too).
 */
export const proAt = (now: Date) => sql<boolean>`(
  (rm_paid_periods.status IN ('active', 'trialing')
    AND (rm_paid_periods.period_end > ${now} OR NOT rm_paid_periods.cancel_at_period_end))
  OR (rm_paid_periods.status = 'past_due' AND rm_paid_periods.period_end > ${now})
)`;

export async function revenueOverview(db: Kysely<Database>, now: Date): Promise<RevenueOverview> {
  const row = await withReadModels(db)
    .selectFrom('rm_paid_periods')
    .leftJoin(
      'rm_billing_subscriptions',
      'rm_billing_subscriptions.subscription_id',
      'rm_paid_periods.subscription_id',
    )
    .select([
      sql<number>`count(*)::int`.as('subscriptions'),
      sql<number>`count(DISTINCT rm_paid_periods.user_id)::int`.as('users'),
      sql<number>`${monthlyRevenue}::int`.as('mrr'),
    ])
    .where(proAt(now))
    .executeTakeFirstOrThrow();
  return {
    activeSubscriptions: row.subscriptions,
    paidUsers: row.users,
    monthlyRecurringRevenueCents: row.mrr,
  };
}

/**
 * The price per month, in cents, of the `rm_paid_periods` rows selected, joined to their
 * `rm_billing_subscriptions` row (where the price is): rounded once, to the nearest cent.
 */
export const monthlyRevenue = sql<number>`coalesce(round(sum(CASE
  WHEN rm_paid_periods.plan = 'yearly' THEN rm_billing_subscriptions.amount / 12.0
  ELSE rm_billing_subscriptions.amount END)), 0)`;

/** The last payment failed: past due (the provider still tries) or unpaid (it gave up). */
const isPaymentFailing = (status: ProviderSubscriptionStatus) => status === 'past_due' || status === 'unpaid';

const isPlan = (value: string): value is PlanId => (planIds as readonly string[]).includes(value);
const isStatus = (value: string): value is ProviderSubscriptionStatus =>
  (providerSubscriptionStatuses as readonly string[]).includes(value);
