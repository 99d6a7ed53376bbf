import { PAYMENTS_DISABLED_MESSAGE } from '@sniplink/contracts';
import { ConflictError } from '@sniplink/domain';
import {
  type CheckoutSnapshot,
  type PaymentProvider,
  type PaymentSnapshot,
  type ProviderEvent,
  type ProviderPayment,
  type SubscriptionSnapshot,
  WebhookSignatureError,
} from '../provider';

/** 409 `PAYMENTS_DISABLED`: the server takes no payments (PAYMENTS=off). */
export class PaymentsDisabledError extends ConflictError {
  constructor() {
    super('PAYMENTS_DISABLED', PAYMENTS_DISABLED_MESSAGE);
  }
}

/** The provider's name for what it records; refused with PAYMENTS=off, where nothing is bought. */
export function sellingProvider(payments: Pick<PaymentProvider, 'name'>): 'stripe' | 'local' {
  if (payments.name === 'off') throw new PaymentsDisabledError();
  return payments.name;
}

/**
 * PAYMENTS=off: no provider. Every purchase is refused with a 409 the user can read; plans are set by
 * admins. Questions about the provider's records answer "unknown", and no webhook is accepted.
 */
export class PaymentsOff implements PaymentProvider {
  readonly name = 'off' as const;

  async ensureCustomer(): Promise<string> {
    throw new PaymentsDisabledError();
  }
  async createCheckout(): Promise<{ sessionId: string; url: string }> {
    throw new PaymentsDisabledError();
  }
  async retrieveCheckout(): Promise<CheckoutSnapshot | null> {
    return null;
  }
  async createPortal(): Promise<{ url: string }> {
    throw new PaymentsDisabledError();
  }
  verifyWebhook(): ProviderEvent {
    throw new WebhookSignatureError('payments are off', 'This server takes no payments');
  }
  async retrieveSubscription(): Promise<SubscriptionSnapshot | null> {
    return null;
  }
  async retrievePayment(): Promise<PaymentSnapshot | null> {
    return null;
  }
  async createPayment(): Promise<ProviderPayment> {
    throw new PaymentsDisabledError();
  }
  async cancelPayment(): Promise<void> {}
  async refundPayment(): Promise<{ refundId: string }> {
    throw new PaymentsDisabledError();
  }
}
