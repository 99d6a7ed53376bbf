import type { AddressInfo } from 'node:net';
import { createLogger, fixedClock, sequentialIds } from '@sniplink/platform';
import { HttpClient } from '@sniplink/test-support/api';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { WebhookSignatureError } from '../provider';
import { LocalPayments } from './local';
import { localPaymentPages, TEST_PAYMENT_NOTICE } from './local-pages';

/**
 * The local test provider through its pages, over HTTP, as a browser would use them (cookie-less: they are
 * pages, not API calls). Its `deliver` is a recorder standing in for the webhook route: it checks each
 * signature with Stripe's SDK and keeps the events it took.
 */

const PUBLIC_URL = 'http://sniplink.test';
const WEBHOOK_SECRET = 'whsec_local_test_secret';
const clock = fixedClock('2027-01-31T12:00:00Z');
const seconds = () => Math.floor(clock.now().getTime() / 1000);

interface Delivered {
  rawBody: string;
  signature: string;
  event: Stripe.Event;
}

let database: TestDatabase;
let app: FastifyInstance;
let client: HttpClient;
let payments: LocalPayments;
let delivered: Delivered[];
/** What the webhook route answers; 200 unless a test says otherwise. */
let webhookStatus: number;

beforeAll(async () => {
  database = await createTestDatabase();
  payments = new LocalPayments({
    db: database.db,
    webhookSecret: WEBHOOK_SECRET,
    publicUrl: PUBLIC_URL,
    clock,
    ids: sequentialIds(),
    log: createLogger('silent'),
    deliver: async (rawBody, signature) => {
      if (webhookStatus !== 200) return webhookStatus;
      // As the webhook route does: the raw body and its header, checked with the SDK at the clock's time.
      const event = Stripe.webhooks.constructEvent(
        rawBody,
        signature,
        WEBHOOK_SECRET,
        300,
        undefined,
        clock.now().getTime(),
      );
      delivered.push({ rawBody, signature, event });
      return 200;
    },
  });
  app = await buildApp({
    log: createLogger('silent'),
    readiness: {},
    allowedOrigins: [PUBLIC_URL],
    routes: [(api) => localPaymentPages(api, { payments })],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  client = new HttpClient(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});
beforeEach(() => {
  delivered = [];
  webhookStatus = 200;
  clock.set('2027-01-31T12:00:00Z');
});

let users = 0;
/** A new user's open checkout for `plan`: its id and the page's path. */
async function openCheckout(plan: 'monthly' | 'yearly' = 'monthly') {
  const userId = `user-${++users}`;
  const customerId = await payments.ensureCustomer({ userId, email: null }, null);
  const { sessionId, url } = await payments.createCheckout({
    userId,
    customerId,
    plan,
    idempotencyKey: `key-${userId}`,
  });
  expect(url).toBe(`${PUBLIC_URL}/pay/local/${sessionId}`);
  return { userId, customerId, sessionId, path: new URL(url).pathname };
}

const press = (path: string) =>
  client.post(path, undefined, { 'content-type': 'application/x-www-form-urlencoded' });
const subscriptionCount = async () =>
  Number(
    (
      await database.db
        .withTables<{ local_pay_subscriptions: { id: string } }>()
        .selectFrom('local_pay_subscriptions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the test checkout page', () => {
  it('says no money moves, and shows the plan, its price and the three buttons, without script', async () => {
    const monthly = await client.get((await openCheckout('monthly')).path);
    expect(monthly.status).toBe(200);
    expect(monthly.headers.get('content-type')).toMatch(/^text\/html/);
    expect(monthly.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(monthly.headers.get('cache-control')).toBe('no-store');
    expect(monthly.text).toContain(TEST_PAYMENT_NOTICE);
    expect(monthly.text).toContain('Pro Monthly');
    expect(monthly.text).toContain('$2/month');
    for (const label of ['>Pay<', '>Pay with a declined card<', '>Cancel<'])
      expect(monthly.text).toContain(label);
    expect(monthly.text).not.toContain('<script');
    const yearly = await client.get((await openCheckout('yearly')).path);
    expect(yearly.text).toContain('Pro Yearly');
    expect(yearly.text).toContain('$20/year');
  });

  it('Pay: starts the subscription, delivers the three events signed and verifiable, then goes to the success URL', async () => {
    const { userId, customerId, sessionId, path } = await openCheckout('monthly');
    const answer = await press(`${path}/pay`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(
      `${PUBLIC_URL}/subscribe?payment=success&session_id=${sessionId}`,
    );

    expect(delivered.map((d) => d.event.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ]);
    const events = delivered.map((d) => payments.verifyWebhook(Buffer.from(d.rawBody), d.signature));
    const subscriptionId = events[0]?.subscriptionId;
    expect(subscriptionId).toMatch(/^sub_/);
    for (const event of events) {
      expect(event).toMatchObject({ subscriptionId, customerId, userId, created: clock.now() });
      expect(event.id).toMatch(/^evt_/);
    }
    expect(new Set(events.map((event) => event.id)).size).toBe(3);

    // The subscription as the webhook route re-reads it: a month from the clock (Jan 31 -> Feb 28).
    expect(await payments.retrieveSubscription(subscriptionId ?? '')).toEqual({
      id: subscriptionId,
      customerId,
      userId,
      plan: 'monthly',
      status: 'active',
      currentPeriodEnd: new Date('2027-02-28T12:00:00Z'),
      cancelAtPeriodEnd: false,
      amount: 200,
      currency: 'usd',
    });
  });

  it('Pay a second time (a double submit) goes to the success URL again and makes nothing more; the page is gone', async () => {
    const { sessionId, path } = await openCheckout('yearly');
    await press(`${path}/pay`);
    const count = await subscriptionCount();
    delivered = [];
    const again = await press(`${path}/pay`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toContain(`session_id=${sessionId}`);
    expect(delivered).toEqual([]);
    expect(await subscriptionCount()).toBe(count);
    const page = await client.get(path);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Checkout not found');
    expect(page.text).toContain(TEST_PAYMENT_NOTICE);
  });

  it('Pay pressed in two tabs at once makes one subscription and one set of events', async () => {
    const { path } = await openCheckout();
    const count = await subscriptionCount();
    const answers = await Promise.all([press(`${path}/pay`), press(`${path}/pay`)]);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    expect(await subscriptionCount()).toBe(count + 1);
    // Both answers deliver what is pending, so an event may arrive twice (as from Stripe): the same event,
    // which the route applies once by its id.
    const byId = new Map(delivered.map((d) => [d.event.id, d.event.type]));
    expect([...byId.values()]).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ]);
  });

  it('a yearly subscription runs a year', async () => {
    const { path } = await openCheckout('yearly');
    await press(`${path}/pay`);
    const subscriptionId = payments.verifyWebhook(
      Buffer.from(delivered[0]?.rawBody ?? ''),
      delivered[0]?.signature,
    ).subscriptionId;
    expect(await payments.retrieveSubscription(subscriptionId ?? '')).toMatchObject({
      plan: 'yearly',
      amount: 2000,
      currentPeriodEnd: new Date('2028-01-31T12:00:00Z'),
    });
  });

  it('Pay with a declined card: the page again, saying so; no event, no subscription; paying still works', async () => {
    const { path } = await openCheckout();
    const count = await subscriptionCount();
    const declined = await press(`${path}/decline`);
    expect(declined.status).toBe(402);
    expect(declined.text).toContain('Your card was declined.');
    expect(declined.text).toContain(TEST_PAYMENT_NOTICE);
    expect(declined.text).toContain('>Pay<');
    expect(delivered).toEqual([]);
    expect(await subscriptionCount()).toBe(count);
    expect((await press(`${path}/pay`)).status).toBe(303);
    expect(await subscriptionCount()).toBe(count + 1);
  });

  it('Cancel: to the cancel URL, nothing made; the checkout stays open', async () => {
    const { path } = await openCheckout();
    const count = await subscriptionCount();
    const canceled = await press(`${path}/cancel`);
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get('location')).toBe(`${PUBLIC_URL}/subscribe?payment=canceled`);
    expect(delivered).toEqual([]);
    expect(await subscriptionCount()).toBe(count);
    expect((await client.get(path)).status).toBe(200);
  });

  it('tells whose a checkout is and whether it was paid: open, complete once paid, expired after a day unpaid', async () => {
    const paid = await openCheckout('monthly');
    const unpaid = await openCheckout('yearly');
    expect(await payments.retrieveCheckout(paid.sessionId)).toEqual({
      id: paid.sessionId,
      userId: paid.userId,
      status: 'open',
      paid: false,
    });
    await press(`${paid.path}/pay`);
    expect(await payments.retrieveCheckout(paid.sessionId)).toMatchObject({ status: 'complete', paid: true });
    clock.set('2027-02-01T12:00:01Z');
    expect(await payments.retrieveCheckout(unpaid.sessionId)).toMatchObject({
      userId: unpaid.userId,
      status: 'expired',
      paid: false,
    });
    expect(await payments.retrieveCheckout(paid.sessionId)).toMatchObject({ status: 'complete', paid: true });
    expect(await payments.retrieveCheckout('cs_test_never_made')).toBeNull();
  });

  it('an unknown or expired checkout is a 404 page, and its buttons do nothing', async () => {
    const count = await subscriptionCount();
    for (const path of [
      '/pay/local/cs_test_nothing',
      '/pay/local/cs_test_nothing/pay',
      '/pay/local/x/decline',
      '/pay/local/x/cancel',
    ]) {
      const answer = path.split('/').length > 4 ? await press(path) : await client.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).toContain('Checkout not found');
    }
    const { path } = await openCheckout();
    clock.advance(24 * 3_600_000);
    expect((await client.get(path)).status).toBe(404);
    expect((await press(`${path}/pay`)).status).toBe(404);
    expect(delivered).toEqual([]);
    expect(await subscriptionCount()).toBe(count);
  });

  it("refuses another site's form (the API's origin check): nothing is paid", async () => {
    const { path } = await openCheckout();
    const count = await subscriptionCount();
    const answer = await client.post(`${path}/pay`, undefined, {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    });
    expect(answer.status).toBe(403);
    expect(delivered).toEqual([]);
    expect(await subscriptionCount()).toBe(count);
    const ownSite = await client.post(`${path}/pay`, undefined, {
      'content-type': 'application/x-www-form-urlencoded',
      origin: PUBLIC_URL,
    });
    expect(ownSite.status).toBe(303);
  });

  it('an event the webhook route does not take is kept, and delivered again with the next action', async () => {
    const first = await openCheckout();
    webhookStatus = 503;
    expect((await press(`${first.path}/pay`)).status).toBe(303);
    expect(delivered).toEqual([]);
    webhookStatus = 200;
    const second = await openCheckout();
    await press(`${second.path}/pay`);
    expect(
      delivered.map((d) => [d.event.type, (d.event.data.object as { customer?: string }).customer]),
    ).toEqual([
      ['checkout.session.completed', first.customerId],
      ['customer.subscription.created', first.customerId],
      ['invoice.paid', first.customerId],
      ['checkout.session.completed', second.customerId],
      ['customer.subscription.created', second.customerId],
      ['invoice.paid', second.customerId],
    ]);
    // Signed when sent: the retried events are fresh, not stale.
    expect(delivered.every((d) => d.signature.startsWith(`t=${seconds()},`))).toBe(true);
  });
});

describe('customers and checkouts', () => {
  it('makes one customer per user, also when asked at once; a customer id it does not know is not used', async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, () => payments.ensureCustomer({ userId: 'user-once', email: null }, null)),
    );
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^cus_/);
    expect(await payments.ensureCustomer({ userId: 'user-once', email: null }, ids[0] ?? null)).toBe(ids[0]);
    expect(await payments.ensureCustomer({ userId: 'user-once', email: null }, 'cus_from_stripe')).toBe(
      ids[0],
    );
    expect(await payments.ensureCustomer({ userId: 'user-other', email: null }, null)).not.toBe(ids[0]);
  });

  it('answers a checkout created again with the same idempotency key with the same session', async () => {
    const customerId = await payments.ensureCustomer({ userId: 'user-idem', email: null }, null);
    const input = { userId: 'user-idem', customerId, plan: 'monthly' as const, idempotencyKey: 'same-key' };
    const [a, b] = await Promise.all([payments.createCheckout(input), payments.createCheckout(input)]);
    expect(b).toEqual(a);
    const c = await payments.createCheckout({ ...input, idempotencyKey: 'other-key' });
    expect(c.sessionId).not.toBe(a.sessionId);
  });

  it('checks webhooks with the same SDK helper as Stripe: a wrong secret or a changed body is refused', () => {
    const body = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'invoice.paid',
      created: seconds(),
      data: { object: {} },
    });
    const header = (secret: string) =>
      Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: seconds() });
    expect(payments.verifyWebhook(Buffer.from(body), header(WEBHOOK_SECRET)).id).toBe('evt_1');
    expect(() => payments.verifyWebhook(Buffer.from(body), header('whsec_other'))).toThrow(
      WebhookSignatureError,
    );
    expect(() => payments.verifyWebhook(Buffer.from(`${body} `), header(WEBHOOK_SECRET))).toThrow(
      WebhookSignatureError,
    );
    expect(() => payments.verifyWebhook(Buffer.from(body), undefined)).toThrow(WebhookSignatureError);
  });

  it('refuses a signature dated more than five minutes from its clock, either way; four minutes ahead is taken', () => {
    const body = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      type: 'invoice.paid',
      created: seconds(),
      data: { object: {} },
    });
    const verify = (offsetSeconds: number) => () =>
      payments.verifyWebhook(
        Buffer.from(body),
        Stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: WEBHOOK_SECRET,
          timestamp: seconds() + offsetSeconds,
        }),
      );
    expect(verify(365 * 86_400)).toThrow(/ahead of the clock/);
    expect(verify(-6 * 60)).toThrow(/tolerance/);
    expect(verify(4 * 60)().id).toBe('evt_2');
  });

  it('answers null for a subscription or a payment it does not know', async () => {
    expect(await payments.retrieveSubscription('sub_unknown')).toBeNull();
    expect(await payments.retrievePayment('pi_unknown')).toBeNull();
  });
});

describe('the test portal', () => {
  /** A paid subscription and its portal's path. */
  async function subscribedPortal(plan: 'monthly' | 'yearly' = 'yearly') {
    const checkout = await openCheckout(plan);
    await press(`${checkout.path}/pay`);
    const subscriptionId = payments.verifyWebhook(
      Buffer.from(delivered[1]?.rawBody ?? ''),
      delivered[1]?.signature,
    ).subscriptionId as string;
    delivered = [];
    const { url } = await payments.createPortal({
      customerId: checkout.customerId,
      returnUrl: `${PUBLIC_URL}/profile`,
    });
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/pay/local/portal/[\\w-]{32}$`));
    return { ...checkout, subscriptionId, portal: new URL(url).pathname };
  }

  it('says no money moves, shows the plan and renewal date, its buttons and the way back to the profile', async () => {
    const { portal } = await subscribedPortal('yearly');
    const page = await client.get(portal);
    expect(page.status).toBe(200);
    expect(page.text).toContain(TEST_PAYMENT_NOTICE);
    expect(page.text).toContain('Pro Yearly · $20/year');
    expect(page.text).toContain('Renews on January 31, 2028.');
    for (const label of ['Cancel at period end', 'End the period now', 'Fail the next payment']) {
      expect(page.text).toContain(`>${label}<`);
    }
    expect(page.text).toContain(`href="${PUBLIC_URL}/profile"`);
  });

  it('Cancel at period end: customer.subscription.updated with cancel_at_period_end; Pro until the end', async () => {
    const { portal, subscriptionId } = await subscribedPortal('monthly');
    const answer = await press(`${portal}/cancel-at-period-end`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(portal);
    expect(delivered.map((d) => d.event.type)).toEqual(['customer.subscription.updated']);
    const object = delivered[0]?.event.data.object as Stripe.Subscription;
    expect(object).toMatchObject({ id: subscriptionId, status: 'active', cancel_at_period_end: true });
    expect(delivered[0]?.event.data.previous_attributes).toEqual({
      cancel_at_period_end: false,
      cancel_at: null,
    });
    expect(await payments.retrieveSubscription(subscriptionId)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date('2027-02-28T12:00:00Z'),
    });
    const page = await client.get(portal);
    expect(page.text).toContain('Ends on February 28, 2027.');
    expect(page.text).not.toContain('>Cancel at period end<');
    delivered = [];
    await press(`${portal}/cancel-at-period-end`);
    expect(delivered).toEqual([]);
  });

  it('Fail the next payment: invoice.payment_failed and the subscription past due, same period end', async () => {
    const { portal, subscriptionId } = await subscribedPortal('monthly');
    expect((await press(`${portal}/fail-payment`)).status).toBe(303);
    expect(delivered.map((d) => d.event.type)).toEqual([
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    const events = delivered.map((d) => payments.verifyWebhook(Buffer.from(d.rawBody), d.signature));
    expect(events.map((event) => event.subscriptionId)).toEqual([subscriptionId, subscriptionId]);
    expect(await payments.retrieveSubscription(subscriptionId)).toMatchObject({
      status: 'past_due',
      currentPeriodEnd: new Date('2027-02-28T12:00:00Z'),
    });
    expect((await client.get(portal)).text).toContain('The last payment failed');
  });

  it('End the period now: customer.subscription.deleted, canceled with the period ending now; no buttons left', async () => {
    const { portal, subscriptionId } = await subscribedPortal('yearly');
    clock.advance(30 * 60_000);
    expect((await press(`${portal}/end-now`)).status).toBe(303);
    expect(delivered.map((d) => d.event.type)).toEqual(['customer.subscription.deleted']);
    expect(delivered[0]?.event.data.object).toMatchObject({ id: subscriptionId, status: 'canceled' });
    expect(await payments.retrieveSubscription(subscriptionId)).toMatchObject({
      status: 'canceled',
      currentPeriodEnd: clock.now(),
    });
    const page = await client.get(portal);
    expect(page.text).toContain('Ended on January 31, 2027.');
    expect(page.text).not.toContain('<form');
    delivered = [];
    for (const action of ['cancel-at-period-end', 'fail-payment', 'end-now'])
      await press(`${portal}/${action}`);
    expect(delivered).toEqual([]);
  });

  it('an unknown or expired portal link is a 404 page, and its buttons change nothing', async () => {
    const { portal, subscriptionId } = await subscribedPortal();
    expect((await client.get('/pay/local/portal/not-a-token')).status).toBe(404);
    expect((await press('/pay/local/portal/not-a-token/end-now')).status).toBe(404);
    clock.advance(3_600_000 + 1);
    const expired = await client.get(portal);
    expect(expired.status).toBe(404);
    expect(expired.text).toContain('Billing page expired');
    expect((await press(`${portal}/end-now`)).status).toBe(404);
    expect(delivered).toEqual([]);
    expect(await payments.retrieveSubscription(subscriptionId)).toMatchObject({ status: 'active' });
  });

  it('refuses an action it does not have', async () => {
    const { portal } = await subscribedPortal();
    const answer = await press(`${portal}/refund-everything`);
    expect(answer.status).toBe(400);
    expect(delivered).toEqual([]);
  });
});

describe('one-off payments (premium slugs) on the test card form', () => {
  const metadata = { premiumSlugId: 'slug-1', premiumHoldId: 'hold-1', userId: 'user-1' };
  let made = 0;
  const newPayment = () =>
    payments.createPayment({
      amount: 2500,
      currency: 'usd',
      description: 'Premium slug "deals"',
      metadata,
      idempotencyKey: `premium-hold-${++made}`,
    });
  const confirm = (paymentId: string, clientSecret: string, action: string) =>
    client.post<{ status: string; error: string | null }>(
      `/pay/local/payments/${paymentId}/confirm`,
      { clientSecret, action },
      { origin: PUBLIC_URL },
    );

  it('the same idempotency key gives the same payment', async () => {
    const key = { amount: 2500, currency: 'usd', description: 'x', metadata, idempotencyKey: 'same-key' };
    const first = await payments.createPayment(key);
    expect(first).toMatchObject({ id: expect.stringMatching(/^pi_/), amount: 2500, currency: 'usd' });
    expect(await payments.createPayment(key)).toEqual(first);
  });

  it('Pay succeeds it and delivers payment_intent.succeeded with its metadata; a second Pay changes nothing', async () => {
    const payment = await newPayment();
    const paid = await confirm(payment.id, payment.clientSecret, 'pay');
    expect(paid.body).toEqual({ status: 'succeeded', error: null });
    expect(delivered.map((event) => event.event.type)).toEqual(['payment_intent.succeeded']);
    expect(delivered[0]?.event.data.object).toMatchObject({
      id: payment.id,
      amount_received: 2500,
      metadata,
    });
    expect((await confirm(payment.id, payment.clientSecret, 'pay')).body).toEqual({
      status: 'succeeded',
      error: null,
    });
    expect(delivered).toHaveLength(1);
  });

  it('a declined card fails the attempt with the card error; Cancel ends it; a wrong secret is a 404', async () => {
    const payment = await newPayment();
    expect((await confirm(payment.id, 'pi_wrong_secret', 'pay')).status).toBe(404);
    const declined = await confirm(payment.id, payment.clientSecret, 'decline');
    expect(declined.body).toEqual({ status: 'requires_payment_method', error: 'Your card was declined.' });
    const canceled = await confirm(payment.id, payment.clientSecret, 'cancel');
    expect(canceled.body).toEqual({ status: 'canceled', error: null });
    expect(delivered.map((event) => event.event.type)).toEqual([
      'payment_intent.payment_failed',
      'payment_intent.canceled',
    ]);
    expect(delivered[0]?.event.data.object).toMatchObject({
      last_payment_error: { message: 'Your card was declined.' },
    });
  });

  it('refunds a succeeded payment once, by its key, and records charge.refunded', async () => {
    const payment = await newPayment();
    await confirm(payment.id, payment.clientSecret, 'pay');
    const refund = await payments.refundPayment({ paymentId: payment.id, idempotencyKey: 'r-1' });
    expect(refund.refundId).toMatch(/^re_/);
    expect(await payments.refundPayment({ paymentId: payment.id, idempotencyKey: 'r-1' })).toEqual(refund);
    // Recorded now, delivered after the next action (a refund is made while a webhook is being handled).
    await confirm((await newPayment()).id, 'nothing', 'pay');
    const other = await newPayment();
    await confirm(other.id, other.clientSecret, 'cancel');
    expect(delivered.filter((event) => event.event.type === 'charge.refunded')).toHaveLength(1);
    expect(await payments.retrievePayment(payment.id)).toEqual({
      id: payment.id,
      amount: 2500,
      currency: 'usd',
      metadata,
      refunded: true,
    });
    expect(await payments.retrievePayment(other.id)).toMatchObject({ refunded: false });
  });
});
