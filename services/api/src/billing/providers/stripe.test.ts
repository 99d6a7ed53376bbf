import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedClock, sequentialIds } from '@sniplink/platform';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PaymentProvider, WebhookSignatureError } from '../provider';
import { stripeProvider } from './stripe';

/**
 * The `stripe` adapter against a local HTTP server the SDK is pointed at (its host, port and protocol
 * options): the server records each call as Stripe would receive it and answers Stripe-shaped JSON.
 * Never the real Stripe API.
 */

interface Call {
  method: string;
  path: string;
  /** The form fields as sent (`line_items[0][price]`, `metadata[userId]`, …). */
  fields: Record<string, string>;
  /** The query's fields (a GET's parameters, such as `expand[0]`). */
  query: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  stripeVersion: string | undefined;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

let server: Server;
let port: number;
let calls: Call[];
let answer: (call: Call) => Answer;

async function readCall(request: IncomingMessage): Promise<Call> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const url = new URL(request.url ?? '/', 'http://stripe.local');
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const header = (name: string) => request.headers[name] as string | undefined;
  return {
    method: request.method ?? '',
    path: url.pathname,
    fields: Object.fromEntries(form),
    query: Object.fromEntries(url.searchParams),
    idempotencyKey: header('idempotency-key'),
    authorization: header('authorization'),
    stripeVersion: header('stripe-version'),
  };
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const call = await readCall(request);
    calls.push(call);
    const { status, body, headers } = answer(call);
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A loopback port nothing listens on (one just opened and closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port: free } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}

/** The adapter made one call so far: its method, path and idempotency key, and the form fields it sent. */
function expectOnlyCall(sent: Partial<Call>, fields: Record<string, string>): void {
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject(sent);
  expect(calls[0]?.fields).toEqual(fields);
}

const PRICES = { monthly: 'price_monthly_2', yearly: 'price_yearly_20' };
const WEBHOOK_SECRET = 'whsec_test_secret';
const clock = fixedClock('2026-12-01T10:00:00Z');
const NOW_S = Date.parse('2026-12-01T10:00:00Z') / 1000;

let provider: PaymentProvider;
beforeEach(() => {
  calls = [];
  answer = stripeAnswers;
  provider = providerOn(port);
});

/** The adapter as the app configures it, its SDK pointed at `stripePort` on the loopback. */
const providerOn = (stripePort: number) =>
  stripeProvider({
    secretKey: 'sk_test_sniplink',
    prices: PRICES,
    webhookSecret: WEBHOOK_SECRET,
    publicUrl: 'https://snip.example.com',
    clock,
    ids: sequentialIds(),
    api: { host: '127.0.0.1', port: stripePort, protocol: 'http' },
  });

/** Stripe's error answer. */
const stripeError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { type: 'invalid_request_error', code, message } },
});

/** What Stripe answers each POST with, by path (only the fields the adapter reads, and their neighbours). */
const postAnswers: Record<string, (call: Call) => unknown> = {
  '/v1/customers': (call) => ({ id: `cus_for_${call.fields['metadata[userId]']}`, object: 'customer' }),
  '/v1/checkout/sessions': () => ({
    id: 'cs_test_1',
    object: 'checkout.session',
    url: 'https://checkout.stripe.com/c/pay/cs_test_1',
  }),
  '/v1/billing_portal/sessions': () => ({
    id: 'bps_1',
    object: 'billing_portal.session',
    url: 'https://billing.stripe.com/p/session/1',
  }),
  '/v1/payment_intents': (call) => ({
    id: 'pi_1',
    object: 'payment_intent',
    amount: Number(call.fields.amount),
    currency: call.fields.currency,
    client_secret: 'pi_1_secret_abc',
    status: 'requires_payment_method',
  }),
  '/v1/refunds': (call) => ({ id: 're_1', object: 'refund', payment_intent: call.fields.payment_intent }),
};

/** What Stripe answers each call with. */
function stripeAnswers(call: Call): Answer {
  const post = call.method === 'POST' ? postAnswers[call.path] : undefined;
  if (post) return { status: 200, body: post(call) };
  if (call.method === 'GET' && call.path.startsWith('/v1/subscriptions/')) {
    return { status: 200, body: subscriptionJson(call.path.split('/').pop() ?? '') };
  }
  return {
    status: 404,
    body: { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } },
  };
}

function subscriptionJson(id: string, overrides: Record<string, unknown> = {}, price = PRICES.yearly) {
  return {
    id,
    object: 'subscription',
    customer: 'cus_42',
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    currency: 'usd',
    metadata: { userId: 'user-42', plan: 'yearly' },
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          object: 'subscription_item',
          quantity: 1,
          current_period_start: NOW_S,
          current_period_end: NOW_S + 365 * 86_400,
          price: {
            id: price,
            object: 'price',
            unit_amount: price === PRICES.yearly ? 2000 : 200,
            currency: 'usd',
            recurring: { interval: price === PRICES.yearly ? 'year' : 'month', interval_count: 1 },
          },
        },
      ],
    },
    ...overrides,
  };
}

describe('the stripe adapter: what it sends to Stripe', () => {
  it('makes one customer per user: the create call is keyed by the user id, and a known customer is reused', async () => {
    const first = await provider.ensureCustomer({ userId: 'user-1', email: 'ann@example.com' }, null);
    const again = await provider.ensureCustomer({ userId: 'user-1', email: 'ann@example.com' }, null);
    await provider.ensureCustomer({ userId: 'user-2', email: null }, null);
    expect(first).toBe('cus_for_user-1');
    expect(again).toBe(first);
    expect(calls.map((call) => [call.method, call.path, call.idempotencyKey])).toEqual([
      ['POST', '/v1/customers', 'customer-user-1'],
      ['POST', '/v1/customers', 'customer-user-1'],
      ['POST', '/v1/customers', 'customer-user-2'],
    ]);
    expect(calls[0]?.fields).toEqual({ email: 'ann@example.com', 'metadata[userId]': 'user-1' });
    expect(calls[2]?.fields).toEqual({ 'metadata[userId]': 'user-2' });
    expect(calls[0]?.authorization).toBe('Bearer sk_test_sniplink');
    // The API version the SDK's types (and this adapter's reading of them) describe.
    expect(calls[0]?.stripeVersion).toBe(Stripe.API_VERSION);

    calls = [];
    expect(await provider.ensureCustomer({ userId: 'user-1', email: null }, 'cus_known')).toBe('cus_known');
    expect(calls).toEqual([]);
  });

  it('opens a Checkout Session in subscription mode for the plan, naming the user, with the return URLs', async () => {
    const session = await provider.createCheckout({
      userId: 'user-7',
      customerId: 'cus_7',
      plan: 'yearly',
      idempotencyKey: 'checkout-key-1',
    });
    expect(session).toEqual({ sessionId: 'cs_test_1', url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    expectOnlyCall(
      { method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: 'checkout-key-1' },
      {
        mode: 'subscription',
        customer: 'cus_7',
        client_reference_id: 'user-7',
        'line_items[0][price]': PRICES.yearly,
        'line_items[0][quantity]': '1',
        success_url: 'https://snip.example.com/subscribe?payment=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'https://snip.example.com/subscribe?payment=canceled',
        'metadata[userId]': 'user-7',
        'metadata[plan]': 'yearly',
        'subscription_data[metadata][userId]': 'user-7',
        'subscription_data[metadata][plan]': 'yearly',
      },
    );

    await provider.createCheckout({
      userId: 'user-7',
      customerId: 'cus_7',
      plan: 'monthly',
      idempotencyKey: 'k2',
    });
    expect(calls[1]?.fields['line_items[0][price]']).toBe(PRICES.monthly);
  });

  it('sends a retried call again with the same idempotency key and fields', async () => {
    let failures = 1;
    answer = (call) => {
      if (failures-- > 0) {
        return {
          status: 500,
          body: { error: { type: 'api_error', message: 'try again' } },
          headers: { 'stripe-should-retry': 'true' },
        };
      }
      return stripeAnswers(call);
    };
    const session = await provider.createCheckout({
      userId: 'user-8',
      customerId: 'cus_8',
      plan: 'monthly',
      idempotencyKey: 'checkout-key-8',
    });
    expect(session.sessionId).toBe('cs_test_1');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.idempotencyKey).toBe('checkout-key-8');
    expect(calls[1]?.fields).toEqual(calls[0]?.fields);

    calls = [];
    failures = 1;
    await provider.createPortal({ customerId: 'cus_8', returnUrl: 'https://snip.example.com/profile' });
    expect(calls).toHaveLength(2);
    expect(calls[0]?.idempotencyKey).toEqual(expect.any(String));
    expect(calls[1]?.idempotencyKey).toBe(calls[0]?.idempotencyKey);
  });

  it('opens the Customer Portal for the customer, returning to the given page; each portal its own key', async () => {
    const portal = await provider.createPortal({
      customerId: 'cus_9',
      returnUrl: 'https://snip.example.com/profile',
    });
    await provider.createPortal({ customerId: 'cus_9', returnUrl: 'https://snip.example.com/profile' });
    expect(portal).toEqual({ url: 'https://billing.stripe.com/p/session/1' });
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/v1/billing_portal/sessions' });
    expect(calls[0]?.fields).toEqual({ customer: 'cus_9', return_url: 'https://snip.example.com/profile' });
    expect(calls[0]?.idempotencyKey).toMatch(/^portal-/);
    expect(calls[1]?.idempotencyKey).not.toBe(calls[0]?.idempotencyKey);
  });

  it('fails a checkout whose create call Stripe refuses, with Stripe’s message', async () => {
    answer = () => ({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          message: 'No such price: price_monthly_2',
          param: 'line_items[0][price]',
        },
      },
    });
    await expect(
      provider.createCheckout({ userId: 'u', customerId: 'cus_1', plan: 'monthly', idempotencyKey: 'k' }),
    ).rejects.toThrow('No such price: price_monthly_2');
  });
});

describe('the stripe adapter: how it reads a subscription', () => {
  it('reads plan, status, period end (from its item), cancellation, amount and the user from the metadata', async () => {
    const snapshot = await provider.retrieveSubscription('sub_123');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /v1/subscriptions/sub_123']);
    expect(snapshot).toEqual({
      id: 'sub_123',
      customerId: 'cus_42',
      userId: 'user-42',
      plan: 'yearly',
      status: 'active',
      currentPeriodEnd: new Date((NOW_S + 365 * 86_400) * 1000),
      cancelAtPeriodEnd: false,
      amount: 2000,
      currency: 'usd',
    });
  });

  it('reads a monthly past-due subscription, and a cancellation scheduled either way Stripe records it', async () => {
    answer = () => ({
      status: 200,
      body: subscriptionJson(
        'sub_m',
        { status: 'past_due', cancel_at_period_end: true, metadata: {} },
        PRICES.monthly,
      ),
    });
    expect(await provider.retrieveSubscription('sub_m')).toMatchObject({
      plan: 'monthly',
      status: 'past_due',
      cancelAtPeriodEnd: true,
      amount: 200,
      userId: null,
    });
    answer = () => ({ status: 200, body: subscriptionJson('sub_c', { cancel_at: NOW_S + 365 * 86_400 }) });
    expect(await provider.retrieveSubscription('sub_c')).toMatchObject({ cancelAtPeriodEnd: true });
  });

  it('answers null for a subscription Stripe does not know (404 resource_missing)', async () => {
    answer = () => stripeError(404, 'resource_missing', "No such subscription: 'sub_x'");
    expect(await provider.retrieveSubscription('sub_x')).toBeNull();
    expect(calls.map((call) => call.path)).toEqual(['/v1/subscriptions/sub_x']);
  });

  it('fails, rather than answering null, when Stripe cannot answer: a 5xx, a rate limit, or no server at all', async () => {
    const refusals: Answer[] = [
      { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong' } } },
      {
        status: 429,
        body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } },
      },
    ];
    for (const refusal of refusals) {
      // Stripe's header that says not to retry: the SDK answers at once.
      answer = () => ({ ...refusal, headers: { 'stripe-should-retry': 'false' } });
      await expect(provider.retrieveSubscription('sub_1')).rejects.toThrow();
      await expect(provider.retrievePayment('pi_1')).rejects.toThrow();
    }
    const unreachable = providerOn(await closedPort());
    await expect(unreachable.retrieveSubscription('sub_1')).rejects.toThrow();
  });
});

describe('the stripe adapter: how it reads a checkout the user came back from', () => {
  const sessionJson = (fields: Record<string, unknown>) => ({
    status: 200,
    body: {
      id: 'cs_test_back',
      object: 'checkout.session',
      client_reference_id: 'user-42',
      metadata: { userId: 'user-42', plan: 'monthly' },
      ...fields,
    },
  });

  it('reads whose it is and whether it is paid: complete and paid, complete with the payment clearing, open, expired', async () => {
    const cases: [Record<string, unknown>, { status: string; paid: boolean }][] = [
      [
        { status: 'complete', payment_status: 'paid' },
        { status: 'complete', paid: true },
      ],
      [
        { status: 'complete', payment_status: 'unpaid' },
        { status: 'complete', paid: false },
      ],
      [
        { status: 'open', payment_status: 'unpaid' },
        { status: 'open', paid: false },
      ],
      [
        { status: 'expired', payment_status: 'unpaid' },
        { status: 'expired', paid: false },
      ],
    ];
    for (const [fields, expected] of cases) {
      answer = () => sessionJson(fields);
      expect(await provider.retrieveCheckout('cs_test_back')).toEqual({
        id: 'cs_test_back',
        userId: 'user-42',
        ...expected,
      });
    }
    expect(calls.map((call) => [call.method, call.path])).toContainEqual([
      'GET',
      '/v1/checkout/sessions/cs_test_back',
    ]);
  });

  it('answers none for a session Stripe does not know, and fails when Stripe cannot answer', async () => {
    answer = () => stripeError(404, 'resource_missing', "No such checkout.session: 'cs_test_fake'");
    expect(await provider.retrieveCheckout('cs_test_fake')).toBeNull();
    answer = () => ({
      status: 401,
      body: { error: { type: 'invalid_request_error', message: 'Invalid API Key' } },
    });
    await expect(provider.retrieveCheckout('cs_test_back')).rejects.toThrow('Invalid API Key');
  });
});

describe('the stripe adapter: webhooks', () => {
  const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: options.timestamp ?? NOW_S,
    });
  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type,
      created: NOW_S - 5,
      livemode: false,
      data: { object },
    });

  it('takes a signed event, naming its subscription, customer and user as each kind carries them', () => {
    const completed = event('checkout.session.completed', {
      object: 'checkout.session',
      client_reference_id: 'user-1',
      customer: 'cus_1',
      subscription: 'sub_1',
      metadata: { userId: 'user-1' },
    });
    expect(provider.verifyWebhook(Buffer.from(completed), sign(completed))).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      created: new Date((NOW_S - 5) * 1000),
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      userId: 'user-1',
      payment: null,
    });
    const updated = event('customer.subscription.updated', subscriptionJson('sub_2'));
    expect(provider.verifyWebhook(Buffer.from(updated), sign(updated))).toMatchObject({
      type: 'customer.subscription.updated',
      subscriptionId: 'sub_2',
      customerId: 'cus_42',
      userId: 'user-42',
    });
    const paid = event('invoice.paid', {
      object: 'invoice',
      customer: { id: 'cus_3', object: 'customer' },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: 'sub_3', metadata: { userId: 'user-3' } },
      },
    });
    expect(provider.verifyWebhook(Buffer.from(paid), sign(paid))).toMatchObject({
      type: 'invoice.paid',
      subscriptionId: 'sub_3',
      customerId: 'cus_3',
      userId: 'user-3',
    });
    const other = event('customer.created', { object: 'customer', id: 'cus_9' });
    expect(provider.verifyWebhook(Buffer.from(other), sign(other))).toMatchObject({
      type: 'customer.created',
      subscriptionId: null,
      customerId: null,
      userId: null,
    });
  });

  it('reads a PaymentIntent event: the payment, its metadata, and the card error of a failed one', () => {
    const metadata = { premiumSlugId: 'slug-1', premiumHoldId: 'hold-1', userId: 'user-5' };
    const succeeded = event('payment_intent.succeeded', {
      object: 'payment_intent',
      id: 'pi_5',
      amount: 2500,
      amount_received: 2500,
      currency: 'usd',
      customer: null,
      metadata,
      last_payment_error: null,
    });
    expect(provider.verifyWebhook(Buffer.from(succeeded), sign(succeeded))).toMatchObject({
      type: 'payment_intent.succeeded',
      userId: 'user-5',
      payment: { id: 'pi_5', amount: 2500, currency: 'usd', metadata, failureMessage: null },
    });
    const failed = event('payment_intent.payment_failed', {
      object: 'payment_intent',
      id: 'pi_6',
      amount: 2500,
      amount_received: 0,
      currency: 'usd',
      metadata,
      last_payment_error: { type: 'card_error', message: 'Your card was declined.' },
    });
    expect(provider.verifyWebhook(Buffer.from(failed), sign(failed))).toMatchObject({
      payment: { id: 'pi_6', failureMessage: 'Your card was declined.' },
    });
    const canceled = event('payment_intent.canceled', {
      object: 'payment_intent',
      id: 'pi_7',
      amount: 2500,
      currency: 'usd',
      metadata,
    });
    expect(provider.verifyWebhook(Buffer.from(canceled), sign(canceled))).toMatchObject({
      type: 'payment_intent.canceled',
      payment: { id: 'pi_7', amount: 2500 },
    });
  });

  it('refuses a missing, wrong, stale or altered signature', () => {
    const body = event('invoice.paid', { object: 'invoice', customer: 'cus_1', parent: null });
    const refused = (raw: string, signature: string | undefined) => () =>
      provider.verifyWebhook(Buffer.from(raw), signature);
    expect(refused(body, undefined)).toThrow(WebhookSignatureError);
    expect(refused(body, '')).toThrow(WebhookSignatureError);
    expect(refused(body, 'garbage')).toThrow(WebhookSignatureError);
    expect(refused(body, sign(body, { secret: 'whsec_someone_else' }))).toThrow(WebhookSignatureError);
    expect(refused(body.replace('cus_1', 'cus_2'), sign(body))).toThrow(WebhookSignatureError);
    // Five minutes is the limit: signed 301 s before the clock is stale, 299 s is not.
    expect(refused(body, sign(body, { timestamp: NOW_S - 301 }))).toThrow(/tolerance/);
    expect(refused(body, sign(body, { timestamp: NOW_S - 299 }))).not.toThrow();
  });

  it('refuses a signature dated more than five minutes ahead of the clock, naming the problem', () => {
    const body = event('invoice.paid', { object: 'invoice', customer: 'cus_1', parent: null });
    const verify = (timestamp: number) => () =>
      provider.verifyWebhook(Buffer.from(body), sign(body, { timestamp }));
    const aheadAnswer = "The webhook signature is dated more than 5 minutes ahead of this server's clock";
    expect(verify(NOW_S + 365 * 86_400)).toThrow(expect.objectContaining({ answer: aheadAnswer }));
    expect(verify(NOW_S + 301)).toThrow(WebhookSignatureError);
    expect(verify(NOW_S - 6 * 60)).toThrow(WebhookSignatureError);
    expect(verify(NOW_S + 4 * 60)()).toMatchObject({ id: 'evt_1', type: 'invoice.paid' });
    expect(verify(NOW_S + 300)()).toMatchObject({ id: 'evt_1' });
  });

  it('reads a charge.refunded event as its PaymentIntent, with the amount refunded', () => {
    const refunded = event('charge.refunded', {
      object: 'charge',
      id: 'ch_5',
      payment_intent: 'pi_5',
      amount: 2500,
      amount_refunded: 2500,
      currency: 'usd',
      refunded: true,
      metadata: {},
    });
    expect(provider.verifyWebhook(Buffer.from(refunded), sign(refunded))).toMatchObject({
      type: 'charge.refunded',
      payment: { id: 'pi_5', amount: 2500, currency: 'usd', metadata: {} },
    });
  });
});

describe('one-off payments (premium slugs)', () => {
  it('creates a PaymentIntent with amount, currency, metadata and the idempotency key, answering its client secret', async () => {
    const payment = await provider.createPayment({
      amount: 2500,
      currency: 'usd',
      description: 'Premium slug "deals"',
      metadata: { premiumSlugId: 'slug-1', premiumHoldId: 'hold-1', userId: 'user-1' },
      idempotencyKey: 'premium-hold-hold-1',
    });
    expect(payment).toEqual({ id: 'pi_1', clientSecret: 'pi_1_secret_abc', amount: 2500, currency: 'usd' });
    expectOnlyCall(
      { method: 'POST', path: '/v1/payment_intents', idempotencyKey: 'premium-hold-hold-1' },
      {
        amount: '2500',
        currency: 'usd',
        description: 'Premium slug "deals"',
        'metadata[premiumSlugId]': 'slug-1',
        'metadata[premiumHoldId]': 'hold-1',
        'metadata[userId]': 'user-1',
        'automatic_payment_methods[enabled]': 'true',
      },
    );
  });

  it('re-reads a payment with its latest charge: refunded in full or not, its metadata; null when Stripe does not know it', async () => {
    const metadata = { premiumSlugId: 'slug-1', premiumHoldId: 'hold-1', userId: 'user-5' };
    const charge = (amountRefunded: number) => ({
      id: 'ch_5',
      object: 'charge',
      amount: 2500,
      amount_refunded: amountRefunded,
      refunded: amountRefunded === 2500,
    });
    let refunded = 2500;
    answer = (call) =>
      call.path === '/v1/payment_intents/pi_5'
        ? {
            status: 200,
            body: {
              id: 'pi_5',
              object: 'payment_intent',
              amount: 2500,
              currency: 'usd',
              metadata,
              status: 'succeeded',
              latest_charge: charge(refunded),
            },
          }
        : stripeError(404, 'resource_missing', 'No such payment_intent');
    expect(await provider.retrievePayment('pi_5')).toEqual({
      id: 'pi_5',
      amount: 2500,
      currency: 'usd',
      metadata,
      refunded: true,
    });
    expect(calls.at(-1)).toMatchObject({
      method: 'GET',
      path: '/v1/payment_intents/pi_5',
      query: { 'expand[0]': 'latest_charge' },
    });
    refunded = 500;
    expect(await provider.retrievePayment('pi_5')).toMatchObject({ refunded: false });
    expect(await provider.retrievePayment('pi_unknown')).toBeNull();
  });

  it('refunds a payment in full with the idempotency key', async () => {
    const refund = await provider.refundPayment({
      paymentId: 'pi_9',
      idempotencyKey: 'premium-refund-pi_9',
      metadata: { reason: 'owned' },
    });
    expect(refund).toEqual({ refundId: 're_1' });
    expectOnlyCall(
      { method: 'POST', path: '/v1/refunds', idempotencyKey: 'premium-refund-pi_9' },
      { payment_intent: 'pi_9', 'metadata[reason]': 'owned' },
    );
  });

  it('cancels a payment not paid yet; one Stripe can no longer cancel (paid, cancelled) is left as it is', async () => {
    answer = (call) =>
      call.path === '/v1/payment_intents/pi_open/cancel'
        ? { status: 200, body: { id: 'pi_open', object: 'payment_intent', status: 'canceled' } }
        : stripeError(
            400,
            'payment_intent_unexpected_state',
            'You cannot cancel this PaymentIntent because it has a status of succeeded.',
          );
    await provider.cancelPayment({ paymentId: 'pi_open' });
    await provider.cancelPayment({ paymentId: 'pi_paid' });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /v1/payment_intents/pi_open/cancel',
      'POST /v1/payment_intents/pi_paid/cancel',
    ]);
    answer = () => stripeError(404, 'resource_missing', "No such payment_intent: 'pi_unknown'");
    await expect(provider.cancelPayment({ paymentId: 'pi_unknown' })).rejects.toThrow(
      'No such payment_intent',
    );
  });
});
