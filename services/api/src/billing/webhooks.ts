import { ValidationError } from '@sniplink/domain';
import type { Logger } from '@sniplink/platform';
import type { BillingService } from './billing-service';
import {
  type PaymentFacts,
  type PaymentProvider,
  type ProviderEvent,
  WebhookSignatureError,
} from './provider';
import { PAYMENT_EVENT_TYPES } from './providers/stripe-format';

/** Who applies one-off payments' events (premium slugs: marketplace/premium-purchase-service.ts). */
export interface PaymentEventHandler {
  applyPaymentEvent(type: string, providerEventId: string, facts: PaymentFacts): Promise<void>;
}

export interface WebhookDeps {
  billing: Pick<BillingService, 'applyProviderEvent' | 'atProvider'>;
  /** Absent: `payment_intent.*` events are answered and ignored. */
  oneOffPayments?: PaymentEventHandler;
  payments: PaymentProvider;
  log: Logger;
}

/** The provider's events that can change a subscription; every other type is answered and ignored. */
const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** One-off payments' events (premium slugs), refunds included. */
const PAYMENT_EVENTS = new Set<string>(PAYMENT_EVENT_TYPES);

/**
 * `POST /api/webhooks/stripe`, after Dub's webhook route: the signature checked on the raw body, the
 * subscription re-read from the provider (its state, never the order events arrive in, decides), and
 * each provider event applied once.
 */
export async function receiveWebhook(
  deps: WebhookDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<void> {
  const event = verified(deps.payments, rawBody, signature);
  if (event.payment && PAYMENT_EVENTS.has(event.type)) {
    await deps.oneOffPayments?.applyPaymentEvent(event.type, event.id, event.payment);
    return;
  }
  if (!HANDLED.has(event.type)) return;
  const subscriptionId = event.subscriptionId;
  if (!subscriptionId) {
    deps.log.info({ providerEventId: event.id, type: event.type }, 'payment event names no subscription');
    return;
  }
  const subscription = await deps.billing.atProvider(() =>
    deps.payments.retrieveSubscription(subscriptionId),
  );
  if (!subscription) {
    // Answered 2xx: the provider would otherwise send it again for days, and it would never apply.
    deps.log.warn(
      { providerEventId: event.id, type: event.type, subscriptionId },
      'payment event names a subscription the provider does not know; nothing applied',
    );
    return;
  }
  // Applied to the one user its customer and subscription belong to; refused (and logged) otherwise.
  await deps.billing.applyProviderEvent(event, subscription);
}

function verified(payments: PaymentProvider, rawBody: Buffer, signature: string | undefined): ProviderEvent {
  try {
    return payments.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    throw new ValidationError(error.answer, undefined, 'BAD_REQUEST');
  }
}
