import type { PlanId } from '@sniplink/contracts';
import type { Clock, IdSource } from '@sniplink/platform';
import Stripe from 'stripe';
import type { CheckoutSnapshot, PaymentProvider, SubscriptionSnapshot } from '../provider';
import { checkoutReturnUrls, idOf, subscriptionStatus, verifyStripeWebhook } from './stripe-format';

export interface StripeProviderDeps {
  /** STRIPE_SECRET_KEY */
  secretKey: string;
  /** STRIPE_PRICE_MONTHLY / STRIPE_PRICE_YEARLY: the Stripe price of each plan. */
  prices: Record<PlanId, string>;
  /** STRIPE_WEBHOOK_SECRET: the signing secret of Stripe's webhook endpoint for this site. */
  webhookSecret: string;
  /** PUBLIC_URL: where Checkout sends the browser back to. */
  publicUrl: string;
  clock: Clock;
  ids: IdSource;
  /**
   * Where the SDK sends its calls (its `host`, `port` and `protocol` options); absent: api.stripe.com.
   * Tests point it at a local server; there is no setting for it.
   */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

/**
 * Payments through Stripe (npm `stripe`): one customer per user, Checkout Sessions in subscription mode,
 * the Customer Portal, PaymentIntents and refunds for premium slugs, and webhooks checked with the SDK. Every create call carries an idempotency key,
 * which the SDK sends again when it retries the call.
 */
export function stripeProvider(deps: StripeProviderDeps): PaymentProvider {
  const stripe = new Stripe(deps.secretKey, {
    maxNetworkRetries: 2,
    telemetry: false,
    ...(deps.api ?? {}),
  });
  const urls = checkoutReturnUrls(deps.publicUrl);
  return {
    name: 'stripe',

    async ensureCustomer(user, existing) {
      if (existing) return existing;
      const customer = await stripe.customers.create(
        { ...(user.email ? { email: user.email } : {}), metadata: { userId: user.userId } },
        // Two checkouts at once for one user make one customer.
        { idempotencyKey: `customer-${user.userId}` },
      );
      return customer.id;
    },

    async createCheckout({ userId, customerId, plan, idempotencyKey }) {
      const metadata = { userId, plan };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price: deps.prices[plan], quantity: 1 }],
          success_url: urls.success,
          cancel_url: urls.cancel,
          metadata,
          subscription_data: { metadata },
        },
        { idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL`);
      return { sessionId: session.id, url: session.url };
    },

    async retrieveCheckout(sessionId) {
      try {
        return checkoutSnapshot(await stripe.checkout.sessions.retrieve(sessionId));
      } catch (error) {
        // Stripe's "No such checkout.session": an id it never made (or one of another account's keys).
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },

    async createPortal({ customerId, returnUrl }) {
      const portal = await stripe.billingPortal.sessions.create(
        { customer: customerId, return_url: returnUrl },
        { idempotencyKey: `portal-${deps.ids.newId()}` },
      );
      return { url: portal.url };
    },

    verifyWebhook: (rawBody, signature) =>
      verifyStripeWebhook(rawBody, signature, deps.webhookSecret, deps.clock),

    async retrieveSubscription(subscriptionId) {
      const subscription = await unlessMissing(() => stripe.subscriptions.retrieve(subscriptionId));
      return subscription && subscriptionSnapshot(subscription, deps.prices);
    },

    async retrievePayment(paymentId) {
      const intent = await unlessMissing(() =>
        stripe.paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] }),
      );
      if (!intent) return null;
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      return {
        id: intent.id,
        amount: intent.amount,
        currency: intent.currency,
        metadata: { ...(intent.metadata ?? {}) },
        refunded: charge?.refunded ?? false,
      };
    },

    async createPayment({ amount, currency, description, metadata, idempotencyKey }) {
      const intent = await stripe.paymentIntents.create(
        { amount, currency, description, metadata, automatic_payment_methods: { enabled: true } },
        { idempotencyKey },
      );
      if (!intent.client_secret) throw new Error(`Stripe gave payment intent ${intent.id} no client secret`);
      return {
        id: intent.id,
        clientSecret: intent.client_secret,
        amount: intent.amount,
        currency: intent.currency,
      };
    },

    async cancelPayment({ paymentId }) {
      try {
        await stripe.paymentIntents.cancel(paymentId);
      } catch (error) {
        // Paid or cancelled already: there is nothing left to cancel.
        if (isUnexpectedState(error)) return;
        throw error;
      }
    },

    async refundPayment({ paymentId, idempotencyKey, metadata }) {
      const refund = await stripe.refunds.create({ payment_intent: paymentId, metadata }, { idempotencyKey });
      return { refundId: refund.id };
    },
  };
}

/**
 * A retrieve call's object, or null when Stripe answers that it has no such object (404
 * `resource_missing`). Every other failure (unreachable, 5xx, rate limited) is thrown: the caller answers
 * 503 so the event is sent again.
 */
async function unlessMissing<T>(retrieve: () => Promise<T>): Promise<T | null> {
  try {
    return await retrieve();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.code === 'resource_missing') return null;
    throw error;
  }
}

/**
 * A Stripe subscription as the app reads it. Since API version 2025-03-31 the period is on each item
 * (`items.data[].current_period_end`), no longer on the subscription. A cancellation the portal schedules
 * may set `cancel_at` (to the period's end) rather than `cancel_at_period_end`: either way it ends.
 */
export function subscriptionSnapshot(
  subscription: Stripe.Subscription,
  prices: Record<PlanId, string>,
): SubscriptionSnapshot {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscription.id} has no items`);
  const customerId = idOf(subscription.customer);
  if (!customerId) throw new Error(`Stripe subscription ${subscription.id} names no customer`);
  return {
    id: subscription.id,
    customerId,
    userId: subscription.metadata?.userId ?? null,
    plan: planOf(item.price, prices),
    status: subscriptionStatus(subscription.status, subscription.id),
    currentPeriodEnd: new Date(item.current_period_end * 1000),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    amount: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
    currency: item.price.currency,
  };
}

const CHECKOUT_STATUSES = ['open', 'complete', 'expired'] as const;

/**
 * A Checkout Session as the app reads it: the user it was made for, and whether it is paid. A session
 * completed with a payment still clearing (`payment_status: unpaid`) is not paid yet.
 */
function checkoutSnapshot(session: Stripe.Checkout.Session): CheckoutSnapshot {
  return {
    id: session.id,
    userId: session.client_reference_id ?? session.metadata?.userId ?? null,
    // A status this SDK version does not name counts as not finished.
    status: CHECKOUT_STATUSES.find((status) => status === session.status) ?? 'open',
    paid: session.status === 'complete' && session.payment_status !== 'unpaid',
  };
}

/** The plan of a price: one of the configured prices, else (a price changed since) by its interval. */
function planOf(price: Stripe.Price, prices: Record<PlanId, string>): PlanId {
  if (price.id === prices.yearly) return 'yearly';
  if (price.id === prices.monthly) return 'monthly';
  return price.recurring?.interval === 'year' ? 'yearly' : 'monthly';
}

const isUnexpectedState = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  error.code === 'payment_intent_unexpected_state';
