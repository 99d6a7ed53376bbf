import { PLAN_PRICES, type PlanId } from '@sniplink/contracts';
import type { Clock, Database, Logger } from '@sniplink/platform';
import type { Kysely, Transaction } from 'kysely';
import Stripe from 'stripe';
import type { SubscriptionStatus } from '../provider';
import type { LocalPaymentDb, LocalPaymentTables } from './local-tables';

/**
 * The local provider speaks Stripe's webhook format: the events it makes are Stripe-shaped JSON (the
 * fields the webhook route and Stripe's SDK read, with Stripe's names), signed the way Stripe signs them
 * (`stripe.webhooks.generateTestHeaderString` with the webhook secret) and handed to the same route.
 */

/** Hands a signed event to the webhook route (`POST /api/webhooks/stripe`), as Stripe would; its HTTP status. */
export type DeliverWebhook = (rawBody: string, signature: string) => Promise<number>;

/** A local subscription as its table holds it. */
export interface LocalSubscription {
  id: string;
  customerId: string;
  userId: string;
  plan: PlanId;
  status: SubscriptionStatus;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  createdAt: Date;
}

export const CURRENCY = 'usd';
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** What a period of `plan` costs, in cents, and how often (`PLAN_PRICES`: $2 a month, $20 a year). */
export function planPrice(plan: PlanId): { cents: number; interval: 'month' | 'year' } {
  return PLAN_PRICES[plan];
}

/** A subscription as Stripe's API shows it (its period on its one item, as in API versions since 2025-03-31). */
export function subscriptionObject(subscription: LocalSubscription) {
  const price = planPrice(subscription.plan);
  return {
    id: subscription.id,
    object: 'subscription',
    customer: subscription.customerId,
    status: subscription.status,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    cancel_at: subscription.cancelAtPeriodEnd ? seconds(subscription.periodEnd) : null,
    ended_at: subscription.status === 'canceled' ? seconds(subscription.periodEnd) : null,
    created: seconds(subscription.createdAt),
    currency: CURRENCY,
    livemode: false,
    metadata: { userId: subscription.userId, plan: subscription.plan },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${subscription.id.slice('sub_'.length)}`,
          object: 'subscription_item',
          quantity: 1,
          current_period_start: seconds(subscription.periodStart),
          current_period_end: seconds(subscription.periodEnd),
          price: {
            id: `price_local_${subscription.plan}`,
            object: 'price',
            unit_amount: price.cents,
            currency: CURRENCY,
            recurring: { interval: price.interval, interval_count: 1 },
          },
        },
      ],
    },
  };
}

/** A completed Checkout Session in subscription mode, naming the user as Stripe's does. */
export function checkoutSessionObject(
  session: { id: string; userId: string; plan: PlanId; successUrl: string; cancelUrl: string },
  subscription: LocalSubscription,
) {
  return {
    id: session.id,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: session.userId,
    customer: subscription.customerId,
    subscription: subscription.id,
    amount_total: planPrice(session.plan).cents,
    currency: CURRENCY,
    metadata: { userId: session.userId, plan: session.plan },
    success_url: session.successUrl,
    cancel_url: session.cancelUrl,
    livemode: false,
  };
}

/**
 * An invoice of the subscription's period: the first one, paid at checkout; or the next one, whose payment
 * failed (it stays open).
 */
export function invoiceObject(invoiceId: string, subscription: LocalSubscription, paid: boolean) {
  const cents = planPrice(subscription.plan).cents;
  return {
    id: invoiceId,
    object: 'invoice',
    customer: subscription.customerId,
    status: paid ? 'paid' : 'open',
    billing_reason: paid ? 'subscription_create' : 'subscription_cycle',
    amount_due: cents,
    amount_paid: paid ? cents : 0,
    currency: CURRENCY,
    period_start: seconds(subscription.periodStart),
    period_end: seconds(subscription.periodEnd),
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: {
        subscription: subscription.id,
        metadata: { userId: subscription.userId, plan: subscription.plan },
      },
    },
    livemode: false,
  };
}

/** A local one-off payment as Stripe's API shows a PaymentIntent (`failure`: its last card error). */
export function paymentIntentObject(
  intent: { id: string; amount: number; currency: string; metadata: Record<string, string>; status: string },
  failure: string | null = null,
) {
  return {
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    amount_received: intent.status === 'succeeded' ? intent.amount : 0,
    currency: intent.currency,
    status: intent.status,
    metadata: intent.metadata,
    last_payment_error: failure ? { type: 'card_error', code: 'card_declined', message: failure } : null,
    livemode: false,
  };
}

/** The charge of a refunded local payment, as Stripe's `charge.refunded` carries it. */
export function refundedChargeObject(
  intent: { id: string; amount: number; currency: string },
  refundId: string,
) {
  return {
    id: `ch_${intent.id.slice('pi_'.length)}`,
    object: 'charge',
    payment_intent: intent.id,
    amount: intent.amount,
    amount_refunded: intent.amount,
    currency: intent.currency,
    refunded: true,
    refunds: { object: 'list', data: [{ id: refundId, object: 'refund', amount: intent.amount }] },
    livemode: false,
  };
}

/** One event to record: its type, the object it carries and, for an update, the fields that changed. */
export interface LocalEvent {
  type: string;
  object: Record<string, unknown>;
  previousAttributes?: Record<string, unknown>;
}

/**
 * The events the local provider made, kept in `local_pay_events` from the moment their change is stored
 * (same transaction) until the webhook route has answered 2xx: a refused or failed delivery is sent again
 * after the next action, so none is lost (the route applies each event id once, so a repeat is harmless).
 */
export class LocalEventOutbox {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      webhookSecret: string;
      clock: Clock;
      newEventId: () => string;
      log: Logger;
      deliver: DeliverWebhook;
    },
  ) {}

  async record(trx: Transaction<LocalPaymentDb>, events: readonly LocalEvent[]): Promise<void> {
    const now = this.deps.clock.now();
    const rows = events.map((event) => {
      const id = this.deps.newEventId();
      const payload = {
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: seconds(now),
        type: event.type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: {
          object: event.object,
          ...(event.previousAttributes ? { previous_attributes: event.previousAttributes } : {}),
        },
      };
      return { id, payload: JSON.stringify(payload), created_at: now };
    });
    if (rows.length > 0) await trx.insertInto('local_pay_events').values(rows).execute();
  }

  /** Signs and delivers every event not yet taken, oldest first. */
  async deliverPending(): Promise<void> {
    const db = this.deps.db.withTables<LocalPaymentTables>();
    const pending = await db
      .selectFrom('local_pay_events')
      .select(['seq', 'id', 'payload'])
      .where('delivered_at', 'is', null)
      .orderBy('seq')
      .execute();
    for (const event of pending) {
      const status = await this.deliverOne(event.id, event.payload);
      if (status === undefined || status < 200 || status >= 300) continue;
      await db
        .updateTable('local_pay_events')
        .set({ delivered_at: this.deps.clock.now() })
        .where('seq', '=', event.seq)
        .execute();
    }
  }

  private async deliverOne(eventId: string, payload: string): Promise<number | undefined> {
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.deps.webhookSecret,
      timestamp: seconds(this.deps.clock.now()),
    });
    try {
      const status = await this.deps.deliver(payload, signature);
      if (status >= 200 && status < 300) return status;
      this.deps.log.warn(
        { event: eventId, status },
        'local payments: the webhook route did not take an event; it is sent again after the next payment action',
      );
      return status;
    } catch (err) {
      this.deps.log.error(
        { err, event: eventId },
        'local payments: an event could not be delivered; it is sent again after the next payment action',
      );
      return undefined;
    }
  }
}
