import type { CreateSubscriptionAnswer, ErrorBody, User } from '@sniplink/contracts';
import { billingDecider } from '@sniplink/domain';
import { handleCommand } from '@sniplink/platform';
import { type HttpClient, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BillingService } from './billing-service';
import type { SubscriptionSnapshot } from './provider';
import { type StripeShapedEvent, subscriptionEvent, TestPayments } from './testing';

let api: TestApi;
let payments: TestPayments;
beforeAll(async () => {
  payments = new TestPayments();
  api = await startTestApi({ PUBLIC_URL: 'https://snip.example.com' }, { payments });
});
afterAll(() => api.close());
beforeEach(() => {
  payments.failing = false;
});

const signedIn = () => signedUpClient(api, 'billing');

const DAY_MS = 24 * 60 * 60_000;
let subscriptions = 0;
/** A subscription of the user's the provider holds: monthly, active, paid for 30 days from now. */
function subscriptionOf(userId: string, changes: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  subscriptions += 1;
  const subscription: SubscriptionSnapshot = {
    id: `sub_${subscriptions}`,
    customerId: `cus_${userId.slice(-12)}`,
    userId,
    plan: 'monthly',
    status: 'active',
    currentPeriodEnd: new Date(Date.now() + 30 * DAY_MS),
    cancelAtPeriodEnd: false,
    amount: 200,
    currency: 'usd',
    ...changes,
  };
  payments.hold(subscription);
  return subscription;
}

/** Changes what the provider holds for a subscription (as the portal, or a failed renewal, would). */
const provider = (subscription: SubscriptionSnapshot, changes: Partial<SubscriptionSnapshot>) => {
  const changed = { ...subscription, ...changes };
  payments.hold(changed);
  return changed;
};

let events = 0;
const eventAbout = (type: string, subscription: SubscriptionSnapshot, id = `evt_${++events}`) =>
  subscriptionEvent(id, type, subscription);

/** Delivers a webhook as Stripe does: no cookies, no Origin, the raw JSON body and its signature. */
async function deliver(body: string, signature: string | undefined) {
  const response = await fetch(`${api.baseUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}
const deliverSigned = (event: StripeShapedEvent) => {
  const { body, signature } = payments.signed(event);
  return deliver(body, signature);
};

const billingEventsOf = async (userId: string) =>
  (await api.runtime.eventStore.readStream(`billing-${userId}`)).map((event) => event.type);
const me = async (client: HttpClient) => (await client.get<User>('/api/auth/user')).body;

describe('the webhook signature', () => {
  it('applies a validly signed event: the user is Pro with the period, and can manage billing', async () => {
    const { client, userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    const answer = await deliverSigned(eventAbout('checkout.session.completed', subscription));
    expect(answer).toEqual({ status: 200, body: { received: true } });
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
    expect(await me(client)).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionPlan: 'monthly',
      billing: {
        periodEnd: subscription.currentPeriodEnd.toISOString(),
        cancelAtPeriodEnd: false,
        paymentFailed: false,
        canManage: true,
      },
      linkAllowance: { period: 'month', used: 0, limit: 500, remaining: 500 },
    });
  });

  it('refuses a wrong, missing or stale signature, and a body changed after signing: 400, nothing changes', async () => {
    const { client, userId } = await signedIn();
    const event = eventAbout('checkout.session.completed', subscriptionOf(userId));
    const { body, signature } = payments.signed(event);
    const refusals = [
      payments.signed(event, { secret: 'whsec_someone_else' }),
      { body, signature: undefined },
      payments.signed(event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
      { body: body.replace(userId, '01890000-0000-7000-8000-000000000000'), signature },
      { body: `${body} `, signature },
    ];
    for (const refused of refusals) {
      expect(await deliver(refused.body, refused.signature)).toEqual({
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'The webhook signature is missing, wrong or too old' },
      });
    }
    expect(await billingEventsOf(userId)).toEqual([]);
    expect((await me(client)).subscriptionStatus).toBe('inactive');
    // Signed within the 5 minutes: taken.
    const recent = payments.signed(event, { timestamp: Math.floor(Date.now() / 1000) - 4 * 60 });
    expect((await deliver(recent.body, recent.signature)).status).toBe(200);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
  });

  it("takes Stripe's bodies past the API's 64 KB up to 1 MB, and refuses larger ones with 413", async () => {
    const { userId } = await signedIn();
    const event = eventAbout('customer.subscription.created', subscriptionOf(userId));
    const large = { ...event, data: { object: { ...event.data.object, note: 'x'.repeat(200_000) } } };
    expect((await deliverSigned(large)).status).toBe(200);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
    const tooLarge = { ...event, data: { object: { ...event.data.object, note: 'x'.repeat(1_100_000) } } };
    expect((await deliverSigned(tooLarge)).status).toBe(413);
  });
});

describe('each provider event applied exactly once', () => {
  it('the same event twice in a row: one change', async () => {
    const { userId } = await signedIn();
    const event = eventAbout('invoice.paid', subscriptionOf(userId));
    expect((await deliverSigned(event)).status).toBe(200);
    expect((await deliverSigned(event)).status).toBe(200);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
  });

  it('10 copies at once: all answered 200, one change', async () => {
    const { userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    await deliverSigned(eventAbout('invoice.paid', subscription));
    const canceling = provider(subscription, { cancelAtPeriodEnd: true });
    const { body, signature } = payments.signed(eventAbout('customer.subscription.updated', canceling));
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(body, signature)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await billingEventsOf(userId)).toEqual([
      'BillingCustomerRecorded',
      'SubscriptionActivated',
      'CancellationScheduled',
    ]);
  });

  it('10 copies at once in two processes (no lock in common): the expected revision lets one through', async () => {
    const { userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    const { runtime, config } = api;
    const process = () =>
      new BillingService({
        eventStore: runtime.eventStore,
        db: runtime.database.db,
        payments,
        accounts: runtime.accounts,
        readModels: runtime.progress,
        publicUrl: config.publicUrl,
        log: runtime.log,
        clock: runtime.clock,
      });
    const [one, two] = [process(), process()];
    const race = {
      id: 'evt_race',
      type: 'customer.subscription.updated',
      created: new Date(),
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
      userId,
      payment: null,
    };
    const changes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).applyProviderEvent(race, subscription)),
    );
    // Two events (the customer and the activation) by one of the ten; none by the others.
    expect(changes.sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
  });

  it('mirrors the billing stream on the user stream once per change', async () => {
    const { userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    const event = eventAbout('invoice.paid', subscription);
    await deliverSigned(event);
    await deliverSigned(event);
    const mirrored = (await api.runtime.eventStore.readStream(`user-${userId}`)).filter(
      (recorded) => recorded.type === 'PaidPlanSynced',
    );
    expect(mirrored.map((recorded) => recorded.data)).toEqual([
      {
        version: 1,
        subscriptions: [
          {
            subscriptionId: subscription.id,
            plan: 'monthly',
            status: 'active',
            periodEnd: subscription.currentPeriodEnd.toISOString(),
            cancelAtPeriodEnd: false,
          },
        ],
      },
    ]);
    expect(mirrored[0]?.actorId).toBe('system');
  });
});

describe('a crash between the billing append and the mirror', () => {
  it("is completed by the provider's retry of the same event: the user stream catches up, billing adds nothing", async () => {
    const { client, userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    const event = eventAbout('invoice.paid', subscription);
    // The first delivery appended to the billing stream; the process died before the user stream's mirror.
    await handleCommand(
      api.runtime.eventStore,
      `billing-${userId}`,
      billingDecider,
      { type: 'ApplyProviderSubscription', provider: 'stripe', providerEventId: event.id, subscription },
      { clock: api.runtime.clock },
    );
    const mirrors = async () =>
      (await api.runtime.eventStore.readStream(`user-${userId}`)).filter((e) => e.type === 'PaidPlanSynced');
    expect(await mirrors()).toEqual([]);
    expect((await deliverSigned(event)).status).toBe(200);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
    expect(await mirrors()).toHaveLength(1);
    // The allowance follows: a sixth link is a Pro user's.
    for (let n = 0; n < 6; n++) {
      const made = await client.post('/api/links', { originalUrl: `https://example.com/${n}`, title: null });
      expect(made.status).toBe(201);
    }
  });
});

describe("events out of order: the provider's state decides", () => {
  it('updated before completed ends active', async () => {
    const { client, userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    await deliverSigned(eventAbout('customer.subscription.updated', subscription));
    await deliverSigned(eventAbout('checkout.session.completed', subscription));
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
    expect((await me(client)).subscriptionStatus).toBe('active');
  });

  it('deleted before updated, and an old updated after deleted, end canceled', async () => {
    const { client, userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    const created = eventAbout('customer.subscription.created', subscription);
    const updated = eventAbout('customer.subscription.updated', subscription);
    // The provider has canceled it by the time any of its events arrives.
    provider(subscription, { status: 'canceled' });
    await deliverSigned(eventAbout('customer.subscription.deleted', subscription));
    await deliverSigned(updated);
    await deliverSigned(created);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionCanceled']);
    expect(await me(client)).toMatchObject({ subscriptionStatus: 'inactive', subscriptionPlan: null });
  });
});

describe('events the route does not apply', () => {
  it('answers 200 to an event of another type, and changes nothing', async () => {
    const { userId } = await signedIn();
    const subscription = subscriptionOf(userId);
    expect(await deliverSigned(eventAbout('customer.created', subscription))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect(await billingEventsOf(userId)).toEqual([]);
  });

  it('answers 200 to an event tied to no account, and changes nothing', async () => {
    const stranger = subscriptionOf('01890000-0000-7000-8000-0000000000ff', { userId: null });
    const head = await api.runtime.eventStore.headPosition();
    expect((await deliverSigned(eventAbout('invoice.paid', stranger))).status).toBe(200);
    expect(payments.calls.at(-1)).toEqual({
      method: 'retrieveSubscription',
      input: { subscriptionId: stranger.id },
    });
    expect(await api.runtime.eventStore.headPosition()).toEqual(head);
  });

  it("finds the account by its customer when the event names no user; 503 while the provider can't be reached", async () => {
    const { client, userId } = await signedIn();
    await client.post('/api/create-subscription', { plan: 'monthly' });
    const subscription = subscriptionOf(userId, { userId: null });
    payments.failing = true;
    const unreachable = eventAbout('invoice.paid', { ...subscription, userId: null });
    expect((await deliverSigned(unreachable)).status).toBe(503);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded']);
    payments.failing = false;
    expect((await deliverSigned(unreachable)).status).toBe(200);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded', 'SubscriptionActivated']);
  });
});

describe('POST /api/create-subscription', () => {
  it('gives a checkout for a Free user: one customer, an idempotency key, the session URL', async () => {
    const { client, userId } = await signedIn();
    const before = payments.calls.length;
    const answer = await client.post<CreateSubscriptionAnswer>('/api/create-subscription', {
      plan: 'yearly',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      sessionUrl: expect.stringMatching(/^https:\/\/checkout\.test\/pay\/cs_test_/),
    });
    const made = payments.calls.slice(before);
    expect(made.map((call) => call.method)).toEqual(['ensureCustomer', 'createCheckout']);
    expect(made[1]?.input).toEqual({
      userId,
      customerId: `cus_${userId.slice(-12)}`,
      plan: 'yearly',
      idempotencyKey: expect.stringMatching(new RegExp(`^checkout-${userId}-yearly-\\d+$`)),
    });
    // A second click reuses the customer and sends the same key: the provider answers with the same checkout.
    await client.post('/api/create-subscription', { plan: 'yearly' });
    const again = payments.calls.slice(before + 2);
    expect(again.map((call) => call.method)).toEqual(['createCheckout']);
    expect(again[0]?.input).toEqual(made[1]?.input);
  });

  it('records one customer when two checkouts race', async () => {
    const { client, userId } = await signedIn();
    const answers = await Promise.all([
      client.post('/api/create-subscription', { plan: 'monthly' }),
      client.post('/api/create-subscription', { plan: 'monthly' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await billingEventsOf(userId)).toEqual(['BillingCustomerRecorded']);
  });

  it('says so when the user is Pro already', async () => {
    const { client, userId } = await signedIn();
    await deliverSigned(eventAbout('checkout.session.completed', subscriptionOf(userId)));
    const answer = await client.post('/api/create-subscription', { plan: 'monthly' });
    expect(answer).toMatchObject({
      status: 200,
      body: { status: 'active', message: 'You already have an active subscription' },
    });
  });

  it('refuses another plan (400), a signed-out caller (401), and says 503 when the provider is down', async () => {
    const { client } = await signedIn();
    const weekly = await client.post<ErrorBody>('/api/create-subscription', { plan: 'weekly' });
    expect(weekly).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', field: 'plan', message: 'plan must be monthly or yearly' },
    });
    const signedOut = await api.client().post('/api/create-subscription', { plan: 'monthly' });
    expect(signedOut).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized' } });
    payments.failing = true;
    const down = await client.post<ErrorBody>('/api/create-subscription', { plan: 'monthly' });
    expect(down).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
  });
});

describe('POST /api/billing/portal', () => {
  it('is 409 before the user has a customer, then the portal returning to /profile', async () => {
    const { client, userId } = await signedIn();
    expect(await client.post('/api/billing/portal')).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT', message: 'No billing account yet' },
    });
    expect((await me(client)).billing.canManage).toBe(false);
    await client.post('/api/create-subscription', { plan: 'monthly' });
    expect((await me(client)).billing.canManage).toBe(true);
    const portal = await client.post('/api/billing/portal');
    expect(portal).toMatchObject({
      status: 200,
      body: { url: `https://billing.test/portal/cus_${userId.slice(-12)}` },
    });
    expect(payments.calls.at(-1)?.input).toEqual({
      customerId: `cus_${userId.slice(-12)}`,
      returnUrl: 'https://snip.example.com/profile',
    });
    expect((await api.client().post('/api/billing/portal')).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('describes the three calls with their answers', async () => {
    const document = (
      await api
        .client()
        .get<{ paths: Record<string, Record<string, { responses: object }>> }>('/api/openapi.json')
    ).body;
    expect(Object.keys(document.paths['/api/create-subscription']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401']),
    );
    expect(Object.keys(document.paths['/api/billing/portal']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '401', '409']),
    );
    expect(Object.keys(document.paths['/api/webhooks/stripe']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '413']),
    );
  });
});
