import { providerSubscriptionStatuses } from '@sniplink/contracts';
import type { Clock } from '@sniplink/platform';
import Stripe from 'stripe';
import {
  type PaymentFacts,
  type ProviderEvent,
  type SubscriptionStatus,
  WebhookSignatureError,
} from '../provider';

/**
 * What both adapters share of Stripe's formats (the local one speaks them too): the checkout's return
 * URLs, the webhook check and what an event names, ids and statuses.
 */

/** Checkout's placeholder for the session's id, which Stripe fills in when it sends the browser back. */
export const CHECKOUT_SESSION_ID = '{CHECKOUT_SESSION_ID}';

/**
 * Where either provider's checkout sends the browser back to: /subscribe, which shows the success screen
 * or the "Payment Canceled" toast.
 */
export function checkoutReturnUrls(publicUrl: string): { success: string; cancel: string } {
  return {
    success: `${publicUrl}/subscribe?payment=success&session_id=${CHECKOUT_SESSION_ID}`,
    cancel: `${publicUrl}/subscribe?payment=canceled`,
  };
}

/**
 * A signature timestamped further than this from the app's clock, before or after, is refused: Stripe's
 * own default (5 minutes) for the past, and the same for the future, so a signature made ahead of time
 * cannot be kept and replayed later.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * One webhook check for both providers: the SDK's own `constructEvent` on the raw body, with the time
 * from `clock` (so a test can say when the request arrives), then the future side of the tolerance, which
 * the SDK does not check. Missing, wrong, altered, stale or ahead of time: `WebhookSignatureError`,
 * carrying the reason.
 */
export function verifyStripeWebhook(
  rawBody: Buffer,
  signature: string | undefined,
  secret: string,
  clock: Clock,
): ProviderEvent {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signature ?? '',
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      clock.now().getTime(),
    );
  } catch (error) {
    // Signature errors, and a signed body that is not JSON: either way not an event we can take.
    throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
  }
  refuseFutureTimestamp(signature ?? '', clock);
  return providerEvent(event);
}

/**
 * The signature's `t=` (seconds), read as the SDK reads it (the last `t` wins), once the SDK has verified
 * the signature over that very timestamp: more than the tolerance ahead of the clock is refused.
 */
function refuseFutureTimestamp(signature: string, clock: Clock): void {
  const timestamps = signature
    .split(',')
    .map((item) => item.split('='))
    .filter(([key]) => key === 't')
    .map(([, value]) => Number.parseInt(value ?? '', 10));
  const signedAt = timestamps.at(-1) ?? Number.NaN;
  const aheadBy = signedAt - Math.floor(clock.now().getTime() / 1000);
  if (!Number.isFinite(signedAt) || aheadBy > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError(
      `Timestamp outside the tolerance zone: signed ${aheadBy} s ahead of the clock`,
      `The webhook signature is dated more than ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes ahead of this server's clock`,
    );
  }
}

/** What applying an event needs from it: the subscription, customer and user it names (where it names them). */
export function providerEvent(event: Stripe.Event): ProviderEvent {
  return {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    payment: paymentFacts(event),
    ...eventSubject(event),
  };
}

/**
 * The one-off payments' events (premium slugs): the PaymentIntent they carry, or (`charge.refunded`, a
 * refund we made or one made in the provider's dashboard) the PaymentIntent of the refunded charge.
 */
export const PAYMENT_EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
] as const;

function paymentFacts(event: Stripe.Event): PaymentFacts | null {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = event.data.object;
      return {
        id: intent.id,
        amount: event.type === 'payment_intent.succeeded' ? intent.amount_received : intent.amount,
        currency: intent.currency,
        metadata: { ...(intent.metadata ?? {}) },
        failureMessage: intent.last_payment_error?.message ?? null,
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentId = idOf(charge.payment_intent);
      if (!paymentId) return null;
      return {
        id: paymentId,
        amount: charge.amount_refunded,
        currency: charge.currency,
        metadata: { ...(charge.metadata ?? {}) },
        failureMessage: null,
      };
    }
    default:
      return null;
  }
}

type Subject = Pick<ProviderEvent, 'subscriptionId' | 'customerId' | 'userId'>;

function eventSubject(event: Stripe.Event): Subject {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        subscriptionId: idOf(session.subscription),
        customerId: idOf(session.customer),
        userId: session.client_reference_id ?? session.metadata?.userId ?? null,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      return {
        subscriptionId: subscription.id,
        customerId: idOf(subscription.customer),
        userId: subscription.metadata?.userId ?? null,
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      // Since API version 2025-03-31 an invoice names its subscription under `parent.subscription_details`.
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details;
      return {
        subscriptionId: idOf(details?.subscription),
        customerId: idOf(invoice.customer),
        userId: details?.metadata?.userId ?? null,
      };
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = event.data.object;
      return {
        subscriptionId: null,
        customerId: idOf(intent.customer),
        userId: intent.metadata?.userId ?? null,
      };
    }
    default:
      return { subscriptionId: null, customerId: null, userId: null };
  }
}

/** An expandable field's id: Stripe sends the id, or the object when expanded. */
export function idOf(field: string | { id?: string } | null | undefined): string | null {
  if (typeof field === 'string') return field;
  return field?.id ?? null;
}

/** One of Stripe's subscription statuses; anything else (a status newer than this code) fails, naming it. */
export function subscriptionStatus(value: string, subscriptionId: string): SubscriptionStatus {
  const status = providerSubscriptionStatuses.find((known) => known === value);
  if (!status) throw new Error(`subscription ${subscriptionId} has a status this app does not know`);
  return status;
}
