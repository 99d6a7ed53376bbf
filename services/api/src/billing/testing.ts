import { randomBytes } from 'node:crypto';
import type { PlanId } from '@sniplink/contracts';
import Stripe from 'stripe';
import {
  type CheckoutSnapshot,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentSnapshot,
  type ProviderEvent,
  type ProviderPayment,
  type SubscriptionSnapshot,
  WebhookSignatureError,
} from './provider';

/**
 * A test double of the payment provider for tests where the provider is not what is tested (applying
 * webhooks, checkouts, the portal). Webhooks are signed and checked with Stripe's own SDK
 * (`generateTestHeaderString`, `constructEvent`) and a secret of the test's; subscriptions are what the
 * test set (`hold`), as Stripe would answer a retrieve.
 */
export class TestPayments implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly secret = `whsec_test_${randomBytes(12).toString('hex')}`;
  /** What each call was given, in order. */
  readonly calls: { method: string; input: unknown }[] = [];
  /** Make the provider's API fail (down, refused). */
  failing = false;
  private readonly subscriptions = new Map<string, SubscriptionSnapshot>();
  /** Checkout sessions, as made (open) or as the test set them (`holdCheckout`). */
  private readonly checkouts = new Map<string, CheckoutSnapshot>();
  private readonly webhooks = new Stripe('sk_test_never_called').webhooks;
  private sessions = 0;
  /** One-off payments made, by idempotency key (the same key gives the same payment, as Stripe's). */
  private readonly paymentsByKey = new Map<string, ProviderPayment>();
  /** One-off payments as a retrieve answers them, by id. */
  private readonly paymentsById = new Map<string, PaymentSnapshot>();

  async ensureCustomer(user: { userId: string; email: string | null }, existing: string | null) {
    this.call('ensureCustomer', { user, existing });
    return existing ?? `cus_${user.userId.slice(-12)}`;
  }

  async createCheckout(input: { userId: string; customerId: string; plan: PlanId; idempotencyKey: string }) {
    this.call('createCheckout', input);
    this.sessions += 1;
    const sessionId = `cs_test_${this.sessions}`;
    this.checkouts.set(sessionId, { id: sessionId, userId: input.userId, status: 'open', paid: false });
    return { sessionId, url: `https://checkout.test/pay/${sessionId}` };
  }

  async createPortal(input: { customerId: string; returnUrl: string }) {
    this.call('createPortal', input);
    return { url: `https://billing.test/portal/${input.customerId}` };
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent {
    let event: Stripe.Event;
    try {
      event = this.webhooks.constructEvent(rawBody, signature ?? '', this.secret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new WebhookSignatureError(error.message);
      }
      throw error;
    }
    return providerEventOf(event);
  }

  async retrieveCheckout(sessionId: string): Promise<CheckoutSnapshot | null> {
    this.call('retrieveCheckout', { sessionId });
    return this.checkouts.get(sessionId) ?? null;
  }

  /** The checkout as the provider will answer it from now on (paid, say, before its events arrive). */
  holdCheckout(checkout: CheckoutSnapshot): void {
    this.checkouts.set(checkout.id, checkout);
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    this.call('retrieveSubscription', { subscriptionId });
    return this.subscriptions.get(subscriptionId) ?? null;
  }

  async retrievePayment(paymentId: string): Promise<PaymentSnapshot | null> {
    this.call('retrievePayment', { paymentId });
    return this.paymentsById.get(paymentId) ?? null;
  }

  async createPayment(input: PaymentRequest): Promise<ProviderPayment> {
    this.call('createPayment', input);
    const made = this.paymentsByKey.get(input.idempotencyKey);
    if (made) return made;
    const id = `pi_test_${this.paymentsByKey.size + 1}`;
    const payment = { id, clientSecret: `${id}_secret_test`, amount: input.amount, currency: input.currency };
    this.paymentsByKey.set(input.idempotencyKey, payment);
    const { amount, currency, metadata } = input;
    this.paymentsById.set(id, { id, amount, currency, metadata, refunded: false });
    return payment;
  }

  async cancelPayment(input: { paymentId: string }) {
    this.call('cancelPayment', input);
  }

  async refundPayment(input: {
    paymentId: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }) {
    this.call('refundPayment', input);
    this.refundedAtProvider(input.paymentId);
    return { refundId: `re_${input.paymentId}` };
  }

  /** The payment refunded in full, as the provider's dashboard does it (no call of ours). */
  refundedAtProvider(paymentId: string): void {
    const payment = this.paymentsById.get(paymentId);
    if (payment) this.paymentsById.set(paymentId, { ...payment, refunded: true });
  }

  /** The subscription as the provider holds it from now on. */
  hold(subscription: SubscriptionSnapshot): void {
    this.subscriptions.set(subscription.id, subscription);
  }

  /** A webhook as Stripe sends it: the JSON body and its `Stripe-Signature` (`timestamp` in seconds). */
  signed(event: StripeShapedEvent, options: { secret?: string; timestamp?: number } = {}) {
    const body = JSON.stringify({ object: 'event', api_version: '2025-10-29.clover', ...event });
    const signature = this.webhooks.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? this.secret,
      timestamp: options.timestamp,
    });
    return { body, signature };
  }

  private call(method: string, input: unknown): void {
    if (this.failing) throw new Error('connect ECONNREFUSED');
    this.calls.push({ method, input });
  }
}

/** The part of a Stripe event the tests write: id, type, time and the object it is about. */
export interface StripeShapedEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

/** An event about a subscription, shaped as Stripe sends `type`'s object. */
export function subscriptionEvent(
  id: string,
  type: string,
  subscription: { id: string; customerId: string; userId: string | null },
): StripeShapedEvent {
  const created = Math.floor(Date.now() / 1000);
  const { id: subscriptionId, customerId, userId } = subscription;
  const object = type.startsWith('checkout.session.')
    ? {
        object: 'checkout.session',
        id: `cs_${id}`,
        mode: 'subscription',
        subscription: subscriptionId,
        customer: customerId,
        client_reference_id: userId,
      }
    : type.startsWith('invoice.')
      ? {
          object: 'invoice',
          id: `in_${id}`,
          customer: customerId,
          parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
        }
      : {
          object: 'subscription',
          id: subscriptionId,
          customer: customerId,
          metadata: userId ? { userId } : {},
        };
  return { id, type, created, data: { object } };
}

/** A `payment_intent.*` event about a one-off payment with `metadata`, as Stripe sends it. */
export function paymentIntentEvent(
  id: string,
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'payment_intent.canceled',
  payment: { id: string; amount: number; metadata: Record<string, string>; failureMessage?: string },
): StripeShapedEvent {
  const object = {
    object: 'payment_intent',
    id: payment.id,
    amount: payment.amount,
    amount_received: type === 'payment_intent.succeeded' ? payment.amount : 0,
    currency: 'usd',
    metadata: payment.metadata,
    status:
      type === 'payment_intent.succeeded'
        ? 'succeeded'
        : type === 'payment_intent.canceled'
          ? 'canceled'
          : 'requires_payment_method',
    last_payment_error: payment.failureMessage ? { message: payment.failureMessage } : null,
  };
  return { id, type, created: Math.floor(Date.now() / 1000), data: { object } };
}

/** A `charge.refunded` event: the charge of `paymentId`, refunded in full, as Stripe sends it. */
export function chargeRefundedEvent(id: string, payment: { id: string; amount: number }): StripeShapedEvent {
  const object = {
    object: 'charge',
    id: `ch_${payment.id}`,
    payment_intent: payment.id,
    amount: payment.amount,
    amount_refunded: payment.amount,
    currency: 'usd',
    refunded: true,
    metadata: {},
  };
  return { id, type: 'charge.refunded', created: Math.floor(Date.now() / 1000), data: { object } };
}

/** What the webhook route needs of a Stripe event (the real adapters make the same reduction). */
function providerEventOf(event: Stripe.Event): ProviderEvent {
  const object = event.data.object as unknown as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const parent = object.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  const metadata = object.metadata as Record<string, unknown> | undefined;
  const subscriptionId =
    object.object === 'subscription'
      ? text(object.id)
      : (text(object.subscription) ?? text(parent?.subscription_details?.subscription));
  return {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    subscriptionId,
    customerId: text(object.customer),
    userId: text(object.client_reference_id) ?? text(metadata?.userId),
    payment:
      object.object === 'charge'
        ? {
            id: String(object.payment_intent),
            amount: Number(object.amount_refunded),
            currency: String(object.currency),
            metadata: (metadata ?? {}) as Record<string, string>,
            failureMessage: null,
          }
        : object.object === 'payment_intent'
          ? {
              id: String(object.id),
              amount: Number(
                event.type === 'payment_intent.succeeded' ? object.amount_received : object.amount,
              ),
              currency: String(object.currency),
              metadata: (metadata ?? {}) as Record<string, string>,
              failureMessage: text((object.last_payment_error as { message?: unknown } | null)?.message),
            }
          : null,
  };
}
