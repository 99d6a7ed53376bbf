import {
  type CheckoutConfirmation,
  type CreateSubscriptionAnswer,
  type ErrorBody,
  eventRegistry,
  type User,
} from '@sniplink/contracts';
import { createLogger, fixedClock, InMemoryEventStore } from '@sniplink/platform';
import { type HttpClient, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutReturns } from './checkout-return';
import { TestPayments } from './testing';

type Answer = CheckoutConfirmation & ErrorBody;
const confirmation = (client: HttpClient, sessionId: string) =>
  client.get<Answer>(`/api/subscriptions/checkout/${sessionId}`);

/** Over HTTP on the local test checkout (the default provider): the checkout a user comes back from. */
describe('confirming the checkout a user comes back from', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  /** A Free user's checkout for Pro Monthly: its session id and the test checkout page's path. */
  async function startedCheckout(client: HttpClient) {
    const started = await client.post<CreateSubscriptionAnswer>('/api/create-subscription', {
      plan: 'monthly',
    });
    if (!('sessionUrl' in started.body)) throw new Error(`no checkout: ${started.text}`);
    const path = new URL(started.body.sessionUrl).pathname;
    return { sessionId: path.split('/').pop() ?? '', path };
  }

  it('never confirms a session id the provider did not make: a Free user stays Free', async () => {
    const { client } = await signedUpClient(api, 'return.fake');
    expect(await confirmation(client, 'cs_test_fake')).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'We could not confirm this payment' },
    });
    expect((await client.get<User>('/api/auth/user')).body.subscriptionStatus).toBe('inactive');
  });

  it('says open before the payment and paid after it, to its buyer only', async () => {
    const { client: buyer } = await signedUpClient(api, 'return.buyer');
    const { client: other } = await signedUpClient(api, 'return.other');
    const { sessionId, path } = await startedCheckout(buyer);
    expect(await confirmation(buyer, sessionId)).toMatchObject({
      status: 200,
      body: { sessionId, status: 'open' },
    });

    expect((await buyer.post(`${path}/pay`)).status).toBe(303);
    expect(await confirmation(buyer, sessionId)).toMatchObject({
      status: 200,
      body: { sessionId, status: 'paid' },
    });
    expect((await buyer.get<User>('/api/auth/user')).body.subscriptionStatus).toBe('active');

    // Another account holding the id learns nothing of it: the same answer as for an id never made.
    expect(await confirmation(other, sessionId)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'We could not confirm this payment' },
    });
  });

  it("asks for a session, and a session id of the provider's shape", async () => {
    expect((await confirmation(api.client(), 'cs_test_fake')).status).toBe(401);
    const { client } = await signedUpClient(api, 'return.malformed');
    expect(await confirmation(client, 'not-a-session')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', field: 'sessionId' },
    });
  });
});

/** On the in-memory store, with a provider double: what the local checkout cannot show. */
describe('a checkout paid at the provider', () => {
  const payments = new TestPayments();
  const returns = new CheckoutReturns({
    payments,
    eventStore: new InMemoryEventStore(eventRegistry),
    clock: fixedClock('2026-12-01T10:00:00Z'),
    log: createLogger('silent'),
  });

  it('is processing while its events have not made the user Pro, and not paid while its payment clears', async () => {
    payments.holdCheckout({ id: 'cs_test_paid', userId: 'user-1', status: 'complete', paid: true });
    expect(await returns.confirm('user-1', 'cs_test_paid')).toEqual({
      sessionId: 'cs_test_paid',
      status: 'processing',
    });
    payments.holdCheckout({ id: 'cs_test_clearing', userId: 'user-1', status: 'complete', paid: false });
    expect((await returns.confirm('user-1', 'cs_test_clearing')).status).toBe('processing');
    payments.holdCheckout({ id: 'cs_test_old', userId: 'user-1', status: 'expired', paid: false });
    expect((await returns.confirm('user-1', 'cs_test_old')).status).toBe('expired');
  });

  it('is a 503 to retry when the provider cannot be reached', async () => {
    payments.failing = true;
    await expect(returns.confirm('user-1', 'cs_test_paid')).rejects.toMatchObject({ status: 503 });
    payments.failing = false;
  });
});
