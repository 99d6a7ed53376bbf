import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PremiumPaymentIntent, PremiumPurchase, PremiumSlug } from '@sniplink/contracts';
import { systemClock, uuidV7Ids } from '@sniplink/platform';
import { signedUpClient, startTestApi, type TestApi, testApiWithAdmin } from '@sniplink/test-support/api';
import pino from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { stripeProvider } from './providers/stripe';

/**
 * The webhook route's edges with the `stripe` adapter, Stripe's real SDK pointed at a local HTTP server
 * standing in for Stripe: signatures dated too far either way, a subscription Stripe does not know,
 * Stripe unable to answer, and a refund made in Stripe's dashboard.
 */

const WEBHOOK_SECRET = 'whsec_edges_secret';
const ADMIN_EMAIL = 'edges.admin@example.com';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
/** What the stand-in answers a subscription's retrieve with (its id); by default, Stripe's 404. */
let subscriptionAnswer: (id: string) => Answer;
/** The PaymentIntents made, by id, as Stripe would keep them; `refunded`: its charge refunded in full. */
const intents = new Map<string, { amount: number; metadata: Record<string, string>; refunded: boolean }>();

const missing = (what: string): Answer => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
});

function stripeAnswer(method: string, path: string, form: URLSearchParams): Answer {
  const [, , resource, id] = path.split('/');
  if (method === 'GET' && resource === 'subscriptions') return subscriptionAnswer(id ?? '');
  if (method === 'POST' && path === '/v1/payment_intents') {
    const paymentId = `pi_edges_${intents.size + 1}`;
    const metadata = Object.fromEntries(
      [...form]
        .filter(([key]) => key.startsWith('metadata['))
        .map(([key, value]) => [key.slice(9, -1), value]),
    );
    intents.set(paymentId, { amount: Number(form.get('amount')), metadata, refunded: false });
    const body = { id: paymentId, object: 'payment_intent', client_secret: `${paymentId}_secret` };
    return { status: 200, body: { ...body, amount: Number(form.get('amount')), currency: 'usd' } };
  }
  const intent = id ? intents.get(id) : undefined;
  if (method === 'GET' && resource === 'payment_intents' && intent) {
    const charge = { id: `ch_${id}`, object: 'charge', refunded: intent.refunded };
    const body = {
      id,
      object: 'payment_intent',
      currency: 'usd',
      status: 'succeeded',
      latest_charge: charge,
    };
    return { status: 200, body: { ...body, amount: intent.amount, metadata: intent.metadata } };
  }
  return missing(path);
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

let stripe: Server;
const logged: Record<string, unknown>[] = [];
const t = testApiWithAdmin(ADMIN_EMAIL, { start: startWithStripe });
afterAll(() => new Promise<void>((resolve) => stripe.close(() => resolve())));

/** The stand-in for Stripe on a loopback port, then the app with the `stripe` adapter pointed at it. */
async function startWithStripe(env: Record<string, string>): Promise<TestApi> {
  stripe = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stripe.local');
    const { status, body, headers } = stripeAnswer(request.method ?? '', url.pathname, await formOf(request));
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  });
  stripe.listen(0, '127.0.0.1');
  await once(stripe, 'listening');
  const payments = stripeProvider({
    secretKey: 'sk_test_edges',
    prices: { monthly: 'price_monthly', yearly: 'price_yearly' },
    webhookSecret: WEBHOOK_SECRET,
    publicUrl: 'https://snip.example.com',
    clock: systemClock,
    ids: uuidV7Ids,
    api: { host: '127.0.0.1', port: (stripe.address() as AddressInfo).port, protocol: 'http' },
  });
  const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  return startTestApi(env, { payments, log });
}
beforeEach(() => {
  subscriptionAnswer = () => missing('subscription');
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
let events = 0;

/** An event as Stripe sends it, signed at `signedAt` (seconds), delivered to the webhook route. */
async function deliver(type: string, object: Record<string, unknown>, signedAt = nowSeconds()) {
  const id = `evt_edges_${++events}`;
  const payload = JSON.stringify({ id, object: 'event', type, created: nowSeconds(), data: { object } });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: signedAt,
  });
  const response = await fetch(`${t.api.baseUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return { id, status: response.status, body: (await response.json()) as unknown };
}

const subscriptionUpdated = (subscriptionId: string) =>
  ({ object: 'subscription', id: subscriptionId, customer: 'cus_edges', metadata: {} }) as const;

describe('the webhook signature’s time, with the stripe adapter', () => {
  it('refuses a signature a year ahead or six minutes behind (400, naming it, nothing applied); four minutes ahead is taken', async () => {
    const head = await t.api.runtime.eventStore.headPosition();
    const ahead = await deliver(
      'customer.subscription.updated',
      subscriptionUpdated('sub_1'),
      nowSeconds() + 365 * 86_400,
    );
    expect(ahead).toMatchObject({
      status: 400,
      body: {
        code: 'BAD_REQUEST',
        message: "The webhook signature is dated more than 5 minutes ahead of this server's clock",
      },
    });
    const behind = await deliver(
      'customer.subscription.updated',
      subscriptionUpdated('sub_1'),
      nowSeconds() - 6 * 60,
    );
    expect(behind).toMatchObject({
      status: 400,
      body: { code: 'BAD_REQUEST', message: 'The webhook signature is missing, wrong or too old' },
    });
    expect(await t.api.runtime.eventStore.headPosition()).toEqual(head);
    const skewed = await deliver(
      'customer.created',
      { object: 'customer', id: 'cus_1' },
      nowSeconds() + 4 * 60,
    );
    expect(skewed).toMatchObject({ status: 200, body: { received: true } });
  });
});

describe('a subscription the provider does not know, or a provider that cannot answer', () => {
  it('acknowledges an event about a subscription Stripe answers 404 for, and logs it; nothing is appended', async () => {
    const head = await t.api.runtime.eventStore.headPosition();
    const answer = await deliver('customer.subscription.updated', subscriptionUpdated('sub_gone'));
    expect(answer).toMatchObject({ status: 200, body: { received: true } });
    expect(await t.api.runtime.eventStore.headPosition()).toEqual(head);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 40,
        providerEventId: answer.id,
        subscriptionId: 'sub_gone',
        msg: expect.stringContaining('does not know'),
      }),
    );
  });

  it('answers 503 while Stripe fails or rate-limits the retrieve, so Stripe sends it again', async () => {
    const head = await t.api.runtime.eventStore.headPosition();
    const failures: Answer[] = [
      { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } },
      {
        status: 429,
        body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } },
        headers: { 'stripe-should-retry': 'false' },
      },
    ];
    for (const failure of failures) {
      subscriptionAnswer = () => failure;
      const answer = await deliver('invoice.paid', {
        object: 'invoice',
        customer: 'cus_edges',
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_later' } },
      });
      expect(answer).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
    }
    expect(await t.api.runtime.eventStore.headPosition()).toEqual(head);
  });
});

describe("a refund made in Stripe's dashboard", () => {
  it('reads refunded through the purchase the success page loads, and the slug is for sale again', async () => {
    const added = await t.admin.post<PremiumSlug>('/api/admin/premium-slugs', {
      slug: `edge${Date.now() % 100_000}`,
    });
    expect(added.status, added.text).toBe(201);
    const { client, userId } = await signedUpClient(t.api, 'edges.buyer');
    await t.api.runtime.accounts.setPlan(userId, 'monthly');
    const started = await client.post<PremiumPaymentIntent>(
      `/api/marketplace/premium-slugs/${added.body.id}/payment-intent`,
    );
    expect(started.status, started.text).toBe(200);
    const intent = started.body;
    const stored = intents.get(intent.paymentIntentId);
    const paid = await deliver('payment_intent.succeeded', {
      object: 'payment_intent',
      id: intent.paymentIntentId,
      amount: intent.amount,
      amount_received: intent.amount,
      currency: 'usd',
      metadata: stored?.metadata,
    });
    expect(paid.status).toBe(200);
    const purchase = () =>
      client.get<PremiumPurchase>(`/api/marketplace/purchases/${intent.paymentIntentId}?slug=${intent.slug}`);
    expect((await purchase()).body).toMatchObject({ status: 'complete' });

    if (stored) stored.refunded = true;
    const refunded = await deliver('charge.refunded', {
      object: 'charge',
      id: `ch_${intent.paymentIntentId}`,
      payment_intent: intent.paymentIntentId,
      amount: intent.amount,
      amount_refunded: intent.amount,
      currency: 'usd',
      refunded: true,
      metadata: {},
    });
    expect(refunded.status).toBe(200);
    expect((await purchase()).body).toEqual({
      slugId: added.body.id,
      slug: intent.slug,
      paymentIntentId: intent.paymentIntentId,
      amount: intent.amount,
      status: 'refunded',
    });
    expect((await client.get('/api/marketplace/my-premium-slugs')).body).toEqual([]);
    const detail = await t.api.client().get(`/api/marketplace/premium-slugs/${added.body.id}`);
    expect(detail.body).toMatchObject({ available: true });
  });
});
