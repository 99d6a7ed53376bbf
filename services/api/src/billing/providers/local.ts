import { createHash, randomBytes } from 'node:crypto';
import { type PlanId, planId } from '@sniplink/contracts';
import type { Clock, Database, IdSource, Logger } from '@sniplink/platform';
import { isSuspendedOwner } from '@sniplink/projections';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  CheckoutSnapshot,
  PaymentProvider,
  PaymentRequest,
  PaymentSnapshot,
  SubscriptionSnapshot,
} from '../provider';
import {
  CURRENCY,
  checkoutSessionObject,
  type DeliverWebhook,
  invoiceObject,
  LocalEventOutbox,
  type LocalSubscription,
  paymentIntentObject,
  planPrice,
  refundedChargeObject,
  subscriptionObject,
} from './local-events';
import { addMonths, type PortalAction, portalChange } from './local-subscriptions';
import type { LocalPaymentDb, LocalPaymentTables } from './local-tables';
import {
  CHECKOUT_SESSION_ID,
  checkoutReturnUrls,
  subscriptionStatus,
  verifyStripeWebhook,
} from './stripe-format';

export interface LocalProviderDeps {
  db: Kysely<Database>;
  /** The secret its events are signed with, and webhooks checked with (the same as Stripe's would be). */
  webhookSecret: string;
  /** PUBLIC_URL: its pages' addresses and where checkout sends the browser back to. */
  publicUrl: string;
  clock: Clock;
  ids: IdSource;
  log: Logger;
  deliver: DeliverWebhook;
}

/** Where the local provider's pages are (local-pages.ts). */
export const LOCAL_PAY_PATH = '/pay/local';

/** A checkout page can be paid for a day, as Stripe's Checkout Sessions. */
const CHECKOUT_LIFETIME_MS = 24 * 3_600_000;
/** A portal link works for an hour. */
const PORTAL_LIFETIME_MS = 3_600_000;

/** What the test checkout page shows. */
export interface CheckoutView {
  plan: PlanId;
}

/** What the test portal page shows: the customer's subscription (its latest), if any. */
export interface PortalView {
  returnUrl: string;
  subscription: LocalSubscription | undefined;
}

/**
 * The local test provider, the embedded default's stand-in for Stripe (never in production): customers,
 * checkout sessions, subscriptions and one-off payments (PaymentIntents, for premium slugs) in tables of
 * its own, its pages' actions (local-pages.ts), and the
 * same kinds of signed, Stripe-shaped webhook events, delivered to the same route. No money moves.
 */
export class LocalPayments implements PaymentProvider {
  readonly name = 'local';
  private readonly db: Kysely<LocalPaymentDb>;
  private readonly outbox: LocalEventOutbox;

  constructor(private readonly deps: LocalProviderDeps) {
    this.db = deps.db.withTables<LocalPaymentTables>();
    this.outbox = new LocalEventOutbox({ ...deps, newEventId: () => this.newId('evt') });
  }

  async ensureCustomer(
    user: { userId: string; email: string | null },
    existing: string | null,
  ): Promise<string> {
    // A customer id this provider does not know (one of Stripe's, say) is not used: the user gets one here.
    const known = existing ? await this.customer(existing) : undefined;
    if (known) return known.id;
    await this.db
      .insertInto('local_pay_customers')
      .values({ id: this.newId('cus'), user_id: user.userId, created_at: this.deps.clock.now() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('local_pay_customers')
      .select('id')
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async createCheckout(input: { userId: string; customerId: string; plan: PlanId; idempotencyKey: string }) {
    const now = this.deps.clock.now();
    await this.db
      .insertInto('local_pay_checkout_sessions')
      .values({
        id: this.newId('cs_test'),
        idempotency_key: input.idempotencyKey,
        customer_id: input.customerId,
        user_id: input.userId,
        plan: input.plan,
        status: 'open',
        created_at: now,
        expires_at: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
    const session = await this.db
      .selectFrom('local_pay_checkout_sessions')
      .select('id')
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirstOrThrow();
    return { sessionId: session.id, url: `${this.deps.publicUrl}${LOCAL_PAY_PATH}/${session.id}` };
  }

  /** A session is complete once paid ("Pay" completes and pays at once); open past its lifetime, expired. */
  async retrieveCheckout(sessionId: string): Promise<CheckoutSnapshot | null> {
    const row = await this.db
      .selectFrom('local_pay_checkout_sessions')
      .select(['id', 'user_id', 'status', 'expires_at'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return null;
    const complete = row.status === 'complete';
    const expired = !complete && row.expires_at <= this.deps.clock.now();
    return {
      id: row.id,
      userId: row.user_id,
      status: complete ? 'complete' : expired ? 'expired' : 'open',
      paid: complete,
    };
  }

  async createPortal(input: { customerId: string; returnUrl: string }) {
    const token = randomBytes(24).toString('base64url');
    await this.db
      .insertInto('local_pay_portal_sessions')
      .values({
        token_hash: hashToken(token),
        customer_id: input.customerId,
        return_url: input.returnUrl,
        expires_at: new Date(this.deps.clock.now().getTime() + PORTAL_LIFETIME_MS),
      })
      .execute();
    return { url: `${this.deps.publicUrl}${LOCAL_PAY_PATH}/portal/${token}` };
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined) {
    return verifyStripeWebhook(rawBody, signature, this.deps.webhookSecret, this.deps.clock);
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    const row = await this.db
      .selectFrom('local_pay_subscriptions')
      .selectAll()
      .where('id', '=', subscriptionId)
      .executeTakeFirst();
    if (!row) return null;
    const subscription = fromRow(row);
    return {
      id: subscription.id,
      customerId: subscription.customerId,
      userId: subscription.userId,
      plan: subscription.plan,
      status: subscription.status,
      currentPeriodEnd: subscription.periodEnd,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      amount: row.amount,
      currency: row.currency,
    };
  }

  async retrievePayment(paymentId: string): Promise<PaymentSnapshot | null> {
    const row = await this.db
      .selectFrom('local_pay_payment_intents')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      amount: row.amount,
      currency: row.currency,
      metadata: JSON.parse(row.metadata) as Record<string, string>,
      refunded: row.refund_id !== null,
    };
  }

  async createPayment(input: PaymentRequest) {
    const id = this.newId('pi');
    await this.db
      .insertInto('local_pay_payment_intents')
      .values({
        id,
        idempotency_key: input.idempotencyKey,
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        amount: input.amount,
        currency: input.currency,
        metadata: JSON.stringify(input.metadata),
        status: 'requires_payment_method',
        refund_id: null,
        created_at: this.deps.clock.now(),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('local_pay_payment_intents')
      .selectAll()
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirstOrThrow();
    return { id: row.id, clientSecret: row.client_secret, amount: row.amount, currency: row.currency };
  }

  /**
   * Refunds a succeeded payment once (a second call answers the same refund) and records `charge.refunded`,
   * delivered after the next payment action (a refund is made while a webhook is being handled).
   */
  async refundPayment(input: { paymentId: string; idempotencyKey: string }) {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('local_pay_payment_intents')
        .selectAll()
        .where('id', '=', input.paymentId)
        .forUpdate()
        .executeTakeFirst();
      if (row?.status !== 'succeeded') throw new Error(`No succeeded payment: '${input.paymentId}'`);
      if (row.refund_id) return { refundId: row.refund_id };
      const refundId = this.newId('re');
      await trx
        .updateTable('local_pay_payment_intents')
        .set({ refund_id: refundId })
        .where('id', '=', row.id)
        .execute();
      await this.outbox.record(trx, [
        { type: 'charge.refunded', object: refundedChargeObject(row, refundId) },
      ]);
      return { refundId };
    });
  }

  /** Cancels a payment still open as its Cancel button does (`payment_intent.canceled`, delivered). */
  async cancelPayment(input: { paymentId: string }): Promise<void> {
    const row = await this.db
      .selectFrom('local_pay_payment_intents')
      .select('client_secret')
      .where('id', '=', input.paymentId)
      .executeTakeFirst();
    if (row) await this.confirmPayment(input.paymentId, row.client_secret, 'cancel');
  }

  /**
   * The test card form's buttons on a one-off payment, checked against its client secret: `pay` succeeds
   * it, `decline` fails this attempt (it may be tried again, as Stripe's), `cancel` ends it; each records
   * its `payment_intent.*` event, then the events are delivered. Undefined for an unknown payment or
   * secret; a payment no longer open answers its status unchanged.
   */
  async confirmPayment(
    paymentId: string,
    clientSecret: string,
    action: 'pay' | 'decline' | 'cancel',
  ): Promise<{ status: string; error: string | null } | undefined> {
    const outcome = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('local_pay_payment_intents')
        .selectAll()
        .where('id', '=', paymentId)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.client_secret !== clientSecret) return undefined;
      if (row.status !== 'requires_payment_method') return { status: row.status, error: null };
      const intent = { ...row, metadata: JSON.parse(row.metadata) as Record<string, string> };
      if (action === 'decline') {
        const failure = 'Your card was declined.';
        await this.outbox.record(trx, [
          { type: 'payment_intent.payment_failed', object: paymentIntentObject(intent, failure) },
        ]);
        return { status: row.status, error: failure };
      }
      const status = action === 'pay' ? 'succeeded' : 'canceled';
      await trx.updateTable('local_pay_payment_intents').set({ status }).where('id', '=', row.id).execute();
      await this.outbox.record(trx, [
        { type: `payment_intent.${status}`, object: paymentIntentObject({ ...intent, status }) },
      ]);
      return { status, error: null };
    });
    if (outcome) await this.outbox.deliverPending();
    return outcome;
  }

  /** An open checkout (not paid, not expired), or undefined. */
  async checkout(sessionId: string): Promise<CheckoutView | undefined> {
    const session = await this.openSession(this.db, sessionId);
    return session && { plan: planId.parse(session.plan) };
  }

  /**
   * "Pay": the session is completed and a subscription made, with its events, in one transaction; the
   * events are delivered; the success URL. A session paid already answers its success URL again (a
   * double submit), an unknown or expired one undefined.
   */
  async pay(sessionId: string): Promise<string | undefined> {
    const done = await this.db.transaction().execute(async (trx) => {
      const session = await this.openSession(trx, sessionId, { forUpdate: true });
      if (!session) return this.isComplete(trx, sessionId);
      await trx
        .updateTable('local_pay_checkout_sessions')
        .set({ status: 'complete' })
        .where('id', '=', sessionId)
        .execute();
      const subscription = await this.startSubscription(trx, session);
      const urls = this.returnUrls(sessionId);
      const checkoutSession = {
        id: sessionId,
        userId: session.user_id,
        plan: subscription.plan,
        successUrl: urls.success,
        cancelUrl: urls.cancel,
      };
      await this.outbox.record(trx, [
        { type: 'checkout.session.completed', object: checkoutSessionObject(checkoutSession, subscription) },
        { type: 'customer.subscription.created', object: subscriptionObject(subscription) },
        { type: 'invoice.paid', object: invoiceObject(this.newId('in'), subscription, true) },
      ]);
      return true;
    });
    if (!done) return undefined;
    await this.outbox.deliverPending();
    return this.returnUrls(sessionId).success;
  }

  /** "Cancel": the cancel URL of an open session (it stays open, as Stripe's does), or undefined. */
  async cancelUrl(sessionId: string): Promise<string | undefined> {
    const session = await this.openSession(this.db, sessionId);
    return session && this.returnUrls(sessionId).cancel;
  }

  async portal(token: string): Promise<PortalView | undefined> {
    const portal = await this.portalSession(token);
    if (!portal) return undefined;
    const row = await this.latestSubscription(this.db, portal.customer_id);
    return { returnUrl: portal.return_url, subscription: row && fromRow(row) };
  }

  /**
   * A portal button: the change and its events in one transaction, then the events delivered. False when
   * the portal link is unknown or expired; an action that does not apply to the subscription changes nothing.
   */
  async portalAction(token: string, action: PortalAction): Promise<boolean> {
    const portal = await this.portalSession(token);
    if (!portal) return false;
    await this.db.transaction().execute(async (trx) => {
      const row = await this.latestSubscription(trx, portal.customer_id, { forUpdate: true });
      if (!row) return;
      const change = portalChange(action, fromRow(row), this.deps.clock.now(), () => this.newId('in'));
      if (!change) return;
      await trx
        .updateTable('local_pay_subscriptions')
        .set({
          status: change.subscription.status,
          current_period_end: change.subscription.periodEnd,
          cancel_at_period_end: change.subscription.cancelAtPeriodEnd,
        })
        .where('id', '=', row.id)
        .execute();
      await this.outbox.record(trx, change.events);
    });
    await this.outbox.deliverPending();
    return true;
  }

  private async startSubscription(
    trx: Transaction<LocalPaymentDb>,
    session: Selectable<LocalPaymentTables['local_pay_checkout_sessions']>,
  ): Promise<LocalSubscription> {
    const now = this.deps.clock.now();
    const plan = planId.parse(session.plan);
    const subscription: LocalSubscription = {
      id: this.newId('sub'),
      customerId: session.customer_id,
      userId: session.user_id,
      plan,
      status: 'active',
      periodStart: now,
      periodEnd: addMonths(now, planPrice(plan).interval === 'year' ? 12 : 1),
      cancelAtPeriodEnd: false,
      createdAt: now,
    };
    await trx
      .insertInto('local_pay_subscriptions')
      .values({
        id: subscription.id,
        customer_id: subscription.customerId,
        user_id: subscription.userId,
        plan,
        status: subscription.status,
        amount: planPrice(plan).cents,
        currency: CURRENCY,
        current_period_start: subscription.periodStart,
        current_period_end: subscription.periodEnd,
        cancel_at_period_end: false,
        created_at: now,
      })
      .execute();
    return subscription;
  }

  private openSession(db: Kysely<LocalPaymentDb>, sessionId: string, options: { forUpdate?: boolean } = {}) {
    const query = db
      .selectFrom('local_pay_checkout_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .where('status', '=', 'open')
      .where('expires_at', '>', this.deps.clock.now());
    return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
  }

  private async isComplete(db: Kysely<LocalPaymentDb>, sessionId: string): Promise<boolean> {
    const row = await db
      .selectFrom('local_pay_checkout_sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('status', '=', 'complete')
      .executeTakeFirst();
    return row !== undefined;
  }

  private latestSubscription(
    db: Kysely<LocalPaymentDb>,
    customerId: string,
    options: { forUpdate?: boolean } = {},
  ) {
    const query = db
      .selectFrom('local_pay_subscriptions')
      .selectAll()
      .where('customer_id', '=', customerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
    return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
  }

  private customer(customerId: string) {
    return this.db
      .selectFrom('local_pay_customers')
      .select('id')
      .where('id', '=', customerId)
      .executeTakeFirst();
  }

  /**
   * A portal link in force. One of a suspended account ends with the account's sessions, whenever it was
   * made, and reads as expired: the link does not tell whoever holds it that the account is suspended.
   */
  private async portalSession(token: string) {
    const portal = await this.db
      .selectFrom('local_pay_portal_sessions')
      .innerJoin('local_pay_customers', 'local_pay_customers.id', 'local_pay_portal_sessions.customer_id')
      .select(['customer_id', 'return_url', 'user_id'])
      .where('token_hash', '=', hashToken(token))
      .where('expires_at', '>', this.deps.clock.now())
      .executeTakeFirst();
    if (!portal || (await isSuspendedOwner(this.deps.db, portal.user_id))) return undefined;
    return portal;
  }

  private returnUrls(sessionId: string) {
    const urls = checkoutReturnUrls(this.deps.publicUrl);
    return { success: urls.success.replace(CHECKOUT_SESSION_ID, sessionId), cancel: urls.cancel };
  }

  /** A Stripe-looking id (`cus_…`, `sub_…`, `evt_…`) from the id source. */
  private newId(prefix: string): string {
    return `${prefix}_${this.deps.ids.newId().replaceAll('-', '')}`;
  }
}

function fromRow(row: Selectable<LocalPaymentTables['local_pay_subscriptions']>): LocalSubscription {
  return {
    id: row.id,
    customerId: row.customer_id,
    userId: row.user_id,
    plan: planId.parse(row.plan),
    status: subscriptionStatus(row.status, row.id),
    periodStart: row.current_period_start,
    periodEnd: row.current_period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    createdAt: row.created_at,
  };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
