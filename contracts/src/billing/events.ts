import { z } from 'zod';
import { planId } from '../accounts/events';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';

/** The payment providers: Stripe, and the built-in test checkout of the embedded default. */
export const paymentProviders = ['stripe', 'local'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/** A subscription's status as the provider (Stripe) names it. */
export const providerSubscriptionStatuses = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type ProviderSubscriptionStatus = (typeof providerSubscriptionStatuses)[number];

/**
 * A subscription as the provider held it when one of its events was applied: every subscription event
 * carries all of it (what the admin console and the user see), and the provider event that caused it.
 */
const subscriptionFacts = z.object({
  /** The provider's event (`evt_…`) this was applied for: each is applied at most once. */
  providerEventId: z.string().min(1),
  subscriptionId: z.string().min(1),
  customerId: z.string().min(1),
  plan: planId,
  status: z.enum(providerSubscriptionStatuses),
  /** The end of the period paid for (ISO). */
  periodEnd: z.iso.datetime(),
  cancelAtPeriodEnd: z.boolean(),
  /** What a period costs, in the currency's smallest unit (cents). */
  amount: z.number().int().nonnegative(),
  /** ISO 4217, lower case as Stripe writes it (`usd`). */
  currency: z.string().min(1),
});
export type SubscriptionFacts = z.infer<typeof subscriptionFacts>;

const subscriptionEvent = <const Type extends string>(type: Type) =>
  defineEvent({ type, version: 1, schema: subscriptionFacts });

/**
 * Events of a user's billing stream `billing-{userId}`: the provider's customer, and each subscription's
 * life as the provider reported it. (The user's own stream has `SubscriptionStarted`/`SubscriptionEnded`,
 * the operator's `npm run user:plan`, and `PaidPlanSynced`, this stream's mirror.)
 */
export const billingEvents = eventGroup(
  /** The user's customer at the provider, recorded once: the first one recorded is kept. */
  defineEvent({
    type: 'BillingCustomerRecorded',
    version: 1,
    schema: z.object({ provider: z.enum(paymentProviders), customerId: z.string().min(1) }),
  }),
  /** First seen paid (active, trialing, or already past due): Pro from now on. */
  subscriptionEvent('SubscriptionActivated'),
  /** A new period was paid for: `periodEnd` moved on. */
  subscriptionEvent('SubscriptionRenewed'),
  /** A payment failed (past due, or unpaid): Pro while past due, until `periodEnd`. */
  subscriptionEvent('PaymentFailed'),
  /** Paid again after a failure. */
  subscriptionEvent('PaymentRecovered'),
  /** It ends at `periodEnd` unless withdrawn: Pro until then. */
  subscriptionEvent('CancellationScheduled'),
  subscriptionEvent('CancellationWithdrawn'),
  /** Anything else changed: the plan, the price, the status between two others. */
  subscriptionEvent('SubscriptionUpdated'),
  /** Ended for good (Stripe's `canceled`, or `incomplete_expired`); nothing later changes it. */
  subscriptionEvent('SubscriptionCanceled'),
);
export type BillingEvent = EventsIn<typeof billingEvents>;

/** What the user's stream keeps of one subscription: enough to say whether the user is Pro at an instant. */
const paidPeriod = z.object({
  subscriptionId: z.string().min(1),
  plan: planId,
  status: z.enum(providerSubscriptionStatuses),
  periodEnd: z.iso.datetime(),
  cancelAtPeriodEnd: z.boolean(),
});
export type PaidPeriod = z.infer<typeof paidPeriod>;

/**
 * The user's stream mirrors the billing stream's subscriptions, so that the link allowance is decided on
 * one stream (`TakeLinkSlot`). `version` counts the billing stream's subscription events the mirror has
 * seen: a mirror is only ever replaced by a newer one.
 */
export const paidPlanEvents = eventGroup(
  defineEvent({
    type: 'PaidPlanSynced',
    version: 1,
    schema: z.object({ version: z.number().int().positive(), subscriptions: z.array(paidPeriod) }),
  }),
);
export type PaidPlanEvent = EventsIn<typeof paidPlanEvents>;

/**
 * Who a provider customer (`billingcustomer-{customerId}`) or a provider subscription
 * (`subscription-{subscriptionId}`) belongs to: claimed once, with expected revision "no stream", by the
 * first user it is applied to, and that user's for good. An event binding either to another user is refused.
 */
export const billingClaimEvents = eventGroup(
  defineEvent({
    type: 'BillingCustomerClaimed',
    version: 1,
    schema: z.object({ provider: z.enum(paymentProviders), customerId: z.string().min(1), userId: z.uuid() }),
  }),
  defineEvent({
    type: 'SubscriptionClaimed',
    version: 1,
    schema: z.object({ subscriptionId: z.string().min(1), customerId: z.string().min(1), userId: z.uuid() }),
  }),
);
export type BillingClaimEvent = EventsIn<typeof billingClaimEvents>;
