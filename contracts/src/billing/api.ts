import { z } from 'zod';
import { planIds } from '../accounts/events';

/** Pro's prices, in cents: $2 a month, or $20 a year (list price $24). */
export const PLAN_PRICES = {
  monthly: { cents: 200, interval: 'month' },
  yearly: { cents: 2000, interval: 'year', listCents: 2400 },
} as const;

/** POST /api/create-subscription */
export const createSubscriptionBody = z.object({
  plan: z.enum(planIds, { error: 'must be monthly or yearly' }),
});
export type CreateSubscriptionBody = z.infer<typeof createSubscriptionBody>;
/** The provider's checkout page to send the browser to. */
export const checkoutStartedSchema = z.object({ sessionUrl: z.string() });
/** The user is Pro already: no checkout. */
export const alreadySubscribedSchema = z.object({ status: z.literal('active'), message: z.string() });
export const createSubscriptionAnswer = z.union([checkoutStartedSchema, alreadySubscribedSchema]);
export type CreateSubscriptionAnswer = z.infer<typeof createSubscriptionAnswer>;

/** A checkout session's id as the provider makes it (`cs_test_…`, `cs_live_…`). */
export const checkoutSessionParams = z.object({
  sessionId: z.string().regex(/^cs_\w{1,250}$/, 'is not a checkout session id'),
});

/**
 * What became of a checkout the signed-in user came back from: `paid` (paid, and the user is Pro),
 * `processing` (completed at the provider, the plan not applied yet: the provider's event is on its way),
 * `open` (never paid) or `expired`.
 */
export const checkoutConfirmationStatuses = ['paid', 'processing', 'open', 'expired'] as const;

/** GET /api/subscriptions/checkout/{sessionId}: 404 for a checkout that is not the user's, or none. */
export const checkoutConfirmationSchema = z.object({
  sessionId: z.string(),
  status: z.enum(checkoutConfirmationStatuses),
});
export type CheckoutConfirmation = z.infer<typeof checkoutConfirmationSchema>;

/** POST /api/billing/portal: the provider's page to cancel, change the card and see invoices. */
export const billingPortalSchema = z.object({ url: z.string() });

/** What the user JSON says of the subscription beyond `subscriptionStatus` and `subscriptionPlan`. */
export const billingSchema = z.object({
  /** When the paid period ends (ISO): the renewal date, or the end date when `cancelAtPeriodEnd`. */
  periodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** The last payment failed: still Pro until `periodEnd`, unless the card is updated. */
  paymentFailed: z.boolean(),
  /** The user has a customer at the provider: "Manage billing" opens its portal. */
  canManage: z.boolean(),
});
export type Billing = z.infer<typeof billingSchema>;

/** One allowance rule, computed by the server, shown alike on the dashboard and the profile. */
export const linkAllowanceSchema = z.object({
  /** Free: links held, for as long as they are kept (`lifetime`); Pro: links created this UTC month (`month`). */
  period: z.enum(['lifetime', 'month']),
  used: z.number().int(),
  limit: z.number().int(),
  /** `limit - used`, never below 0. */
  remaining: z.number().int(),
});
export type LinkAllowance = z.infer<typeof linkAllowanceSchema>;

/** The allowances in force: links a Free account holds, links a Pro account creates a UTC month. */
export interface LinkLimits {
  free: number;
  proMonthly: number;
}

/** The allowance rule: Free counts links held against `free`; Pro counts links created this month against `proMonthly`. */
export function linkAllowance(
  pro: boolean,
  createdThisMonth: number,
  held: number,
  limits: LinkLimits,
): LinkAllowance {
  const [period, used, limit] = pro
    ? (['month', createdThisMonth, limits.proMonthly] as const)
    : (['lifetime', held, limits.free] as const);
  return { period, used, limit, remaining: Math.max(0, limit - used) };
}

/** What a purchase answers (409 `PAYMENTS_DISABLED`), and the web shows in its place, when PAYMENTS=off. */
export const PAYMENTS_DISABLED_MESSAGE =
  'Purchases are not enabled on this server: ask its administrator to change your plan.';

/** Whether this server sells anything (Pro, premium slugs); `message` says why not when it does not. */
export const purchasesSchema = z.object({ enabled: z.boolean(), message: z.string().nullable() });
export type Purchases = z.infer<typeof purchasesSchema>;
