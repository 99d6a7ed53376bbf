import type { Database } from '@sniplink/platform';
import type { Generated } from 'kysely';

/**
 * The local provider's own tables (migration 2026-11-26T21-local-payments), known only to it: handles
 * get them with `db.withTables<LocalPaymentTables>()`. (Type aliases: `withTables` wants record types.)
 */
export type LocalPaymentTables = {
  local_pay_customers: { id: string; user_id: string; created_at: Date };
  local_pay_checkout_sessions: {
    id: string;
    idempotency_key: string;
    customer_id: string;
    user_id: string;
    plan: string;
    /** `open` until paid, then `complete`. */
    status: string;
    created_at: Date;
    expires_at: Date;
  };
  local_pay_subscriptions: {
    id: string;
    customer_id: string;
    user_id: string;
    plan: string;
    status: string;
    amount: number;
    currency: string;
    current_period_start: Date;
    current_period_end: Date;
    cancel_at_period_end: boolean;
    created_at: Date;
  };
  /** A portal's URL holds a token; only its SHA-256 is kept. */
  local_pay_portal_sessions: {
    token_hash: string;
    customer_id: string;
    return_url: string;
    expires_at: Date;
  };
  /** One-off payments (premium slugs), as Stripe's PaymentIntents (migration …27T08-premium-purchases). */
  local_pay_payment_intents: {
    id: string;
    idempotency_key: string;
    client_secret: string;
    amount: number;
    currency: string;
    /** JSON of the metadata it was made with. */
    metadata: string;
    /** `requires_payment_method` until paid (`succeeded`) or canceled (`canceled`). */
    status: string;
    refund_id: string | null;
    created_at: Date;
  };
  local_pay_events: {
    /** Order of making (bigint, read as text). */
    seq: Generated<string>;
    id: string;
    /** The event's JSON exactly as it is signed and delivered. */
    payload: string;
    created_at: Date;
    delivered_at: Date | null;
  };
};

export type LocalPaymentDb = Database & LocalPaymentTables;
