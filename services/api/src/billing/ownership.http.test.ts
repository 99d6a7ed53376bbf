import type { AdminUsersPage, ErrorBody, Link, User } from '@sniplink/contracts';
import { billingProjection } from '@sniplink/projections';
import { type HttpClient, signedUpAdmin, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SubscriptionSnapshot } from './provider';
import { subscriptionEvent, TestPayments } from './testing';

/**
 * A provider customer and a subscription belong to the first user they are applied to: a signed event
 * that names another user with them is refused, logged, answered 2xx, and changes nothing anyone sees.
 */
let api: TestApi;
let payments: TestPayments;
let operator: HttpClient;
const OPERATOR = 'billing.owners.operator@example.com';
beforeAll(async () => {
  payments = new TestPayments();
  api = await startTestApi({ ADMIN_EMAILS: OPERATOR }, { payments });
  ({ client: operator } = await signedUpAdmin(api, OPERATOR));
});
afterAll(() => api.close());

let people = 0;
async function person(name: string) {
  const client = api.client();
  const email = `${name}.${Date.now()}.${++people}@example.com`;
  const registered = await client.post<User>('/api/auth/register', { email, password: 'correct horse' });
  expect(registered.status).toBe(201);
  return { client, email, userId: registered.body.id };
}

/** The subscription the provider holds for `userId`, made at its checkout (its metadata names the user). */
function paidSubscription(userId: string, name: string): SubscriptionSnapshot {
  const subscription: SubscriptionSnapshot = {
    id: `sub_${name}_${people}`,
    customerId: `cus_${name}_${people}`,
    userId,
    plan: 'monthly',
    status: 'active',
    currentPeriodEnd: new Date(Date.now() + 30 * 24 * 60 * 60_000),
    cancelAtPeriodEnd: false,
    amount: 200,
    currency: 'usd',
  };
  payments.hold(subscription);
  return subscription;
}

async function deliver(id: string, subscription: SubscriptionSnapshot, namedUser: string) {
  const event = subscriptionEvent(id, 'checkout.session.completed', { ...subscription, userId: namedUser });
  const { body, signature } = payments.signed(event);
  const response = await fetch(`${api.baseUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body,
  });
  return response.status;
}

const me = async (client: HttpClient) => (await client.get<User>('/api/auth/user')).body;
const streamTypes = async (streamId: string) =>
  (await api.runtime.eventStore.readStream(streamId)).map((event) => event.type);
const create = (client: HttpClient, n: number) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: `https://example.com/${n}`, title: null });

async function listedPlan(email: string) {
  const page = await operator.get<AdminUsersPage>(`/api/admin/users?search=${encodeURIComponent(email)}`);
  const [user] = page.body.users;
  return { subscriptionStatus: user?.subscriptionStatus, subscriptionPlan: user?.subscriptionPlan };
}

async function customerOwners(customerId: string) {
  const { rows } = await sql<{ user_id: string }>`
    SELECT user_id FROM rm_billing_customers WHERE customer_id = ${customerId}`.execute(
    api.runtime.database.db,
  );
  return rows.map((row) => row.user_id);
}

/** Bob, Free, is sent an event naming him with Alice's customer and subscription: what he and others see. */
async function expectBobUntouched(bob: Awaited<ReturnType<typeof person>>) {
  expect(await streamTypes(`billing-${bob.userId}`)).toEqual([]);
  expect(await streamTypes(`user-${bob.userId}`)).not.toContain('PaidPlanSynced');
  expect(await me(bob.client)).toMatchObject({
    subscriptionStatus: 'inactive',
    subscriptionPlan: null,
    billing: { canManage: false },
    linkAllowance: { period: 'lifetime', limit: 5 },
  });
  expect(await listedPlan(bob.email)).toEqual({ subscriptionStatus: 'inactive', subscriptionPlan: null });
  for (let n = 0; n < 5; n++) expect((await create(bob.client, n)).status).toBe(201);
  expect(await create(bob.client, 5)).toMatchObject({
    status: 403,
    body: {
      code: 'SUBSCRIPTION_REQUIRED',
      message: 'Free accounts can hold 5 links at a time. Delete a link, or upgrade to Pro to create more.',
    },
  });
  const callsBefore = payments.calls.length;
  const portal = await bob.client.post<{ url?: string }>('/api/billing/portal');
  expect(portal.status).toBe(409);
  expect(portal.body.url).toBeUndefined();
  const portals = payments.calls.slice(callsBefore).filter((call) => call.method === 'createPortal');
  expect(portals).toEqual([]);
}

describe("another user's customer and subscription", () => {
  it("refuses and logs an event naming Bob with Alice's; Bob stays Free everywhere, Alice keeps hers", async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    const paid = paidSubscription(alice.userId, 'alice');
    expect(await deliver(`evt_${uuidv7()}`, paid, alice.userId)).toBe(200);
    expect(await me(alice.client)).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionPlan: 'monthly',
    });

    const warn = vi.spyOn(api.runtime.log, 'warn');
    const forged = `evt_${uuidv7()}`;
    // Answered 2xx: the provider would otherwise retry it for days, and a retry would change nothing.
    expect(await deliver(forged, paid, bob.userId)).toBe(200);
    await expectBobUntouched(bob);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ providerEventId: forged, subscriptionId: paid.id }),
      expect.stringContaining('refused'),
    );
    warn.mockRestore();
    expect(await customerOwners(paid.customerId)).toEqual([alice.userId]);
    expect(await me(alice.client)).toMatchObject({
      subscriptionStatus: 'active',
      billing: { canManage: true },
    });
    expect(await listedPlan(alice.email)).toEqual({
      subscriptionStatus: 'active',
      subscriptionPlan: 'monthly',
    });
  });

  it('keeps a customer recorded before claims existed its first user’s; that user claims it on first use', async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    const paid = paidSubscription(alice.userId, 'alice');
    // Alice's billing as it was recorded before customers and subscriptions were claimed.
    await api.runtime.eventStore.appendToStream(
      `billing-${alice.userId}`,
      [
        {
          id: uuidv7(),
          type: 'BillingCustomerRecorded',
          data: { provider: 'stripe', customerId: paid.customerId },
          occurredAt: new Date(),
        },
      ],
      'no_stream',
    );
    await api.runtime.progress.waitFor(billingProjection, await api.runtime.eventStore.headPosition());

    expect(await deliver(`evt_${uuidv7()}`, paid, bob.userId)).toBe(200);
    expect(await streamTypes(`billingcustomer-${paid.customerId}`)).toEqual([]);

    expect(await deliver(`evt_${uuidv7()}`, paid, alice.userId)).toBe(200);
    expect(await streamTypes(`billingcustomer-${paid.customerId}`)).toEqual(['BillingCustomerClaimed']);
    expect(await streamTypes(`subscription-${paid.id}`)).toEqual(['SubscriptionClaimed']);
    expect(await me(alice.client)).toMatchObject({
      subscriptionStatus: 'active',
      billing: { canManage: true },
    });
    // Her portal opens on her customer, and again (the claim continues).
    for (let i = 0; i < 2; i++) expect((await alice.client.post('/api/billing/portal')).status).toBe(200);
    await expectBobUntouched(bob);
  });
});
