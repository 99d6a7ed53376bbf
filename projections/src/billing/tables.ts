import type { Int8 } from '@sniplink/platform';

/**
 * The billing read model's tables, written by `billingProjection` from the billing streams
 * `billing-{userId}`, read through `./queries`. Their migration is `…26T01-billing` in
 * services/platform/src/db/migrations/.
 */
export type BillingTables = {
  rm_billing_customers: RmBillingCustomersTable;
  rm_billing_subscriptions: RmBillingSubscriptionsTable;
  rm_paid_plans: RmPaidPlansTable;
  rm_paid_periods: RmPaidPeriodsTable;
};

/** The user's customer at the payment provider ("Manage billing" needs one). */
export interface RmBillingCustomersTable {
  user_id: string;
  provider: string;
  customer_id: string;
  recorded_at: Date;
}

/** One row per subscription, as its last event left it; ended ones stay (status `canceled`). */
export interface RmBillingSubscriptionsTable {
  subscription_id: string;
  user_id: string;
  customer_id: string;
  plan: string;
  status: string;
  period_end: Date;
  cancel_at_period_end: boolean;
  /** The last payment failed (past due or unpaid). */
  payment_failed: boolean;
  /** What a period costs, in cents. */
  amount: number;
  currency: string;
  started_at: Date;
  updated_at: Date;
  /** The billing stream's revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}

/**
 * Written by `paidPlansProjection` from the user streams' `PaidPlanSynced` (migration `…28T06-paid-periods`):
 * per user, the user stream's revision last applied.
 */
export interface RmPaidPlansTable {
  user_id: string;
  last_revision: Int8;
}

/**
 * One row per subscription of the user's last `PaidPlanSynced`: the subscriptions that have not ended,
 * with what says whether each makes the user Pro at an instant (the rule `isProAt` applies).
 */
export interface RmPaidPeriodsTable {
  user_id: string;
  subscription_id: string;
  plan: string;
  status: string;
  period_end: Date;
  cancel_at_period_end: boolean;
}
