import type { PlanId, ProviderSubscriptionStatus } from '@sniplink/contracts';

/** A one-off payment to create: its amount in the currency's minor unit, and what its webhook events carry. */
export interface PaymentRequest {
  amount: number;
  currency: string;
  description: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

/**
 * The payment provider port. Two adapters: `stripe` (the npm `stripe` SDK, chosen when
 * STRIPE_SECRET_KEY is set) and `local` (a built-in test checkout for the embedded default, never in
 * production). Both speak Stripe's webhook format: events are Stripe-shaped JSON, signed with
 * STRIPE_WEBHOOK_SECRET the way Stripe signs them (`Stripe-Signature: t=…,v1=…`), and checked with the
 * SDK's own helper, so one webhook route serves both.
 */
export interface PaymentProvider {
  readonly name: 'stripe' | 'local' | 'off';

  /**
   * The provider's customer for this user: `existing` when the user has one, else a new one (created with
   * an idempotency key derived from the user id, so two racing checkouts make one customer).
   */
  ensureCustomer(user: { userId: string; email: string | null }, existing: string | null): Promise<string>;

  /**
   * A checkout for Pro on `plan`, in subscription mode: `client_reference_id` and metadata name the user;
   * success URL `{PUBLIC_URL}/subscribe?payment=success&session_id={CHECKOUT_SESSION_ID}`, cancel URL
   * `{PUBLIC_URL}/subscribe?payment=canceled`. `idempotencyKey` is sent with the create call.
   */
  createCheckout(input: {
    userId: string;
    customerId: string;
    plan: PlanId;
    idempotencyKey: string;
  }): Promise<{ sessionId: string; url: string }>;

  /**
   * A checkout session as the provider holds it: whose it is and whether it was paid; null when the
   * provider knows no session of this id.
   */
  retrieveCheckout(sessionId: string): Promise<CheckoutSnapshot | null>;

  /** The customer portal (cancel at period end, change card, invoices), returning to `returnUrl`. */
  createPortal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;

  /**
   * Checks a webhook's signature on its raw body (missing, wrong, or timestamped more than 5 minutes
   * before or after the app's clock: throws `WebhookSignatureError`) and returns the event it carries.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;

  /**
   * The subscription as the provider holds it now (state is decided from this, never from arrival order);
   * null when the provider does not know it. A provider that cannot answer (down, 5xx, rate limited) throws.
   */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null>;

  /**
   * A one-off payment as the provider holds it now (a refund is decided from this); null when the provider
   * does not know it. A provider that cannot answer throws.
   */
  retrievePayment(paymentId: string): Promise<PaymentSnapshot | null>;

  /**
   * A one-off card payment of `amount` cents (a premium slug): Stripe's PaymentIntent, created with
   * `idempotencyKey` (the same key gives the same payment) and `metadata`, which its webhook events carry.
   * The browser confirms it with `clientSecret`.
   */
  createPayment(input: PaymentRequest): Promise<ProviderPayment>;

  /**
   * Cancels a one-off payment not paid yet (its buyer was suspended), so it can no longer be paid. One
   * paid or cancelled already is left as it is: a payment that went through is the caller's to refund.
   */
  cancelPayment(input: { paymentId: string }): Promise<void>;

  /** Refunds a succeeded payment in full; the same key gives the same refund. */
  refundPayment(input: {
    paymentId: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ refundId: string }>;
}

/** A checkout session as the provider holds it. */
export interface CheckoutSnapshot {
  id: string;
  /** Our user id, as the checkout was made for (`client_reference_id`); null when it names none. */
  userId: string | null;
  /** `complete` once the buyer finished it; `expired` when it can no longer be paid. */
  status: 'open' | 'complete' | 'expired';
  /** Completed and paid (a payment still clearing is not). */
  paid: boolean;
}

/** A one-off payment as the provider made it. */
export interface ProviderPayment {
  id: string;
  clientSecret: string;
  amount: number;
  currency: string;
}

/** A one-off payment as the provider holds it. */
export interface PaymentSnapshot {
  id: string;
  /** Cents asked for. */
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  /** Refunded in full: the provider gave all of it back (a partial refund leaves this false). */
  refunded: boolean;
}

/** What a `payment_intent.*` or `charge.refunded` event says about its payment. */
export interface PaymentFacts {
  id: string;
  /** Cents: what was paid (succeeded), refunded (`charge.refunded`) or asked for. */
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  /** `payment_intent.payment_failed`: the provider's reason, for the buyer. */
  failureMessage: string | null;
}

/** A verified webhook event, reduced to what applying it needs. */
export interface ProviderEvent {
  /** The provider's event id (`evt_…`): each is applied at most once. */
  id: string;
  /** `checkout.session.completed`, `customer.subscription.created|updated|deleted`, `invoice.paid`, … */
  type: string;
  /** When the provider created the event. */
  created: Date;
  /** The subscription the event is about, when it names one. */
  subscriptionId: string | null;
  /** The provider's customer, when the event names one. */
  customerId: string | null;
  /** Our user id, when the event carries it (`client_reference_id`, or the subscription's metadata). */
  userId: string | null;
  /**
   * `payment_intent.succeeded|payment_failed|canceled`, and `charge.refunded` (its charge's payment): the
   * one-off payment it is about.
   */
  payment: PaymentFacts | null;
}

/** Stripe's subscription statuses. */
export type SubscriptionStatus = ProviderSubscriptionStatus;

/** A subscription as the provider holds it. */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  /** From the subscription's metadata (set at checkout); null when the provider does not know it. */
  userId: string | null;
  plan: PlanId;
  status: SubscriptionStatus;
  /** The end of the period paid for (Stripe: the first item's `current_period_end`). */
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** What a period costs, in the currency's smallest unit (cents). */
  amount: number;
  currency: string;
}

/** A webhook whose signature is missing, wrong, stale or dated ahead: 400, nothing changes. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  /**
   * @param message the check's own reason, for the log
   * @param answer what the 400 tells the sender
   */
  constructor(
    message: string,
    readonly answer = 'The webhook signature is missing, wrong or too old',
  ) {
    super(message);
  }
}
