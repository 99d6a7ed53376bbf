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

/** The subscriptions that have not ended of each of these users (the admin's list of users: one query a page). */
export async function liveSubscriptionsOf(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, BilledSubscription[]>> {
  const byUser = new Map<string, BilledSubscription[]>();
  if (userIds.length === 0) return byUser;
  const rows = await withReadModels(db)
    .selectFrom('rm_billing_subscriptions')
    .select([
      'user_id',
      'subscription_id',
      'plan',
      'status',
      'period_end',
      'cancel_at_period_end',
      'payment_failed',
    ])
    .where('user_id', 'in', userIds)
    .where('status', 'not in', ['canceled', 'incomplete_expired'])
    .execute();
  for (const row of rows) {
    if (!isPlan(row.plan) || !isStatus(row.status)) continue;
    const subscription: BilledSubscription = {
      subscriptionId: row.subscription_id,
      plan: row.plan,
      status: row.status,
      periodEnd: row.period_end,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      paymentFailed: row.payment_failed,
    };
    byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), subscription]);
  }
  return byUser;
}

/** The user whose provider customer this is, when one was recorded. */
export async function userIdOfCustomer(db: Kysely<Database>, customerId: string): Promise<string | null> {
  const row = await withReadModels(db)
    .selectFrom('rm_billing_customers')
    .select('user_id')
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The admin Overview's money figures (issue 21 shows them). */
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
 * end at a period end that has passed; past due until the period ends. A condition on
 * rm_billing_subscriptions' rows (the admin Overview's figures use it too).
 */
export const proAt = (now: Date) => sql<boolean>`(
  (status IN ('active', 'trialing') AND (period_end > ${now} OR NOT cancel_at_period_end))
  OR (status = 'past_due' AND period_end > ${now})
)`;

export async function revenueOverview(db: Kysely<Database>, now: Date): Promise<RevenueOverview> {
  const row = await withReadModels(db)
    .selectFrom('rm_billing_subscriptions')
    .select([
      sql<number>`count(*)::int`.as('subscriptions'),
      sql<number>`count(DISTINCT user_id)::int`.as('users'),
      sql<number>`coalesce(round(sum(CASE WHEN plan = 'yearly' THEN amount / 12.0 ELSE amount END)), 0)::int`.as(
        'mrr',
      ),
    ])
    .where(proAt(now))
    .executeTakeFirstOrThrow();
  return {
    activeSubscriptions: row.subscriptions,
    paidUsers: row.users,
    monthlyRecurringRevenueCents: row.mrr,
  };
}

const isPlan = (value: string): value is PlanId => (planIds as readonly string[]).includes(value);
const isStatus = (value: string): value is ProviderSubscriptionStatus =>
  (providerSubscriptionStatuses as readonly string[]).includes(value);
