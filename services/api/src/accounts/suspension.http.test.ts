import type {
  Link,
  MarketplaceSlugDetail,
  OwnedPremiumSlug,
  PremiumPaymentIntent,
  PremiumSlug,
} from '@sniplink/contracts';
import {
  countedClicks,
  type HttpClient,
  signedUpClient,
  startTestApi,
  type TestApi,
  testApiWithAdmin,
} from '@sniplink/test-support/api';
import { uniqueSlug } from '@sniplink/test-support/premium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentIntentEvent, TestPayments } from '../billing/testing';

/**
 * What a suspension stops beyond sign-in, on the app with its built-in local payment provider: the
 * account's links and premium slugs, its open premium payments, and its billing portal links.
 */

const ADMIN_EMAIL = 'suspension.admin@example.com';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36';

const t = testApiWithAdmin(ADMIN_EMAIL);

async function setSuspended(userId: string, suspended: boolean): Promise<void> {
  const answer = await t.admin.patch(`/api/admin/users/${userId}/suspend`, { suspended });
  expect(answer.status, answer.text).toBe(200);
}

/** A Pro account holding a premium slug for now: its hold and the local provider's payment. */
async function proBuyer(label: string) {
  const buyer = await signedUpClient(t.api, label);
  await t.api.runtime.accounts.setPlan(buyer.userId, 'monthly');
  const added = await t.admin.post<PremiumSlug>('/api/admin/premium-slugs', { slug: uniqueSlug('susp') });
  expect(added.status, added.text).toBe(201);
  const started = await buyer.client.post<PremiumPaymentIntent>(
    `/api/marketplace/premium-slugs/${added.body.id}/payment-intent`,
  );
  expect(started.status, started.text).toBe(200);
  return { ...buyer, slug: added.body, intent: started.body };
}

/** The test card form's Pay or Cancel on a payment, as the browser posts it. */
const confirm = (intent: PremiumPaymentIntent, action: 'pay' | 'cancel') =>
  t.api.client().post<{ status: string }>(`/pay/local/payments/${intent.paymentIntentId}/confirm`, {
    clientSecret: intent.clientSecret,
    action,
  });

const visit = (code: string) => t.api.client().get(`/s/${code}`, { 'user-agent': BROWSER });

const clicksOf = async (linkId: string) => (await countedClicks(t.api, linkId)).clicks;

/** Visits twice: the second answer is the cached entry's, which the fast paths see first. */
async function expectUnavailable(code: string): Promise<void> {
  for (let time = 0; time < 2; time++) {
    const page = await visit(code);
    expect(page.status).toBe(403);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(page.text).toContain('This link is unavailable');
  }
}

async function expectRedirect(code: string, target: string): Promise<void> {
  for (let time = 0; time < 2; time++) {
    const redirect = await visit(code);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(target);
  }
}

describe("a suspended account's links", () => {
  it('answer the unavailable page and count nothing until unsuspended, keep their code, then redirect and count again', async () => {
    const { client, userId, slug, intent } = await proBuyer('suspension.links');
    expect((await confirm(intent, 'pay')).body.status).toBe('succeeded');
    const set = await client.request<OwnedPremiumSlug>(
      'PUT',
      `/api/marketplace/premium-slugs/${slug.slug}/url`,
      {
        url: 'https://example.com/premium',
      },
    );
    expect(set.status, set.text).toBe(200);
    const code = uniqueSlug('Held');
    const created = await client.post<Link>('/api/links', {
      originalUrl: 'https://example.com/link',
      title: null,
      shortCode: code,
    });
    expect(created.status, created.text).toBe(201);
    const link = created.body;

    await expectRedirect(link.shortCode, 'https://example.com/link');
    await expectRedirect(slug.slug, 'https://example.com/premium');
    expect(await clicksOf(link.id)).toBe(2);
    expect(await clicksOf(slug.id)).toBe(2);

    await setSuspended(userId, true);
    await expectUnavailable(link.shortCode);
    await expectUnavailable(link.shortCode.toLowerCase());
    await expectUnavailable(slug.slug);
    expect(await clicksOf(link.id)).toBe(2);
    expect(await clicksOf(slug.id)).toBe(2);
    // The code stays the suspended account's: nobody else takes it meanwhile.
    const other = await signedUpClient(t.api, 'suspension.other');
    await t.api.runtime.accounts.setPlan(other.userId, 'monthly');
    const taken = await other.client.post('/api/links', {
      originalUrl: 'https://example.org/',
      title: null,
      shortCode: code.toLowerCase(),
    });
    expect(taken.status).toBe(409);

    await setSuspended(userId, false);
    await expectRedirect(link.shortCode, 'https://example.com/link');
    await expectRedirect(slug.slug, 'https://example.com/premium');
    expect(await clicksOf(link.id)).toBe(4);
    expect(await clicksOf(slug.id)).toBe(4);
  });
});

describe("a suspended account's open premium payment", () => {
  it('is cancelled at the provider and its hold released: the slug is for sale again and the payment can no longer be made', async () => {
    const { userId, slug, intent } = await proBuyer('suspension.payment');
    const held = await t.api.client().get<MarketplaceSlugDetail>(`/api/marketplace/premium-slugs/${slug.id}`);
    expect(held.body.held).toBe(true);

    await setSuspended(userId, true);
    const released = await t.api
      .client()
      .get<MarketplaceSlugDetail>(`/api/marketplace/premium-slugs/${slug.id}`);
    expect(released.body).toMatchObject({ held: false, available: true });
    expect((await confirm(intent, 'pay')).body.status).toBe('canceled');

    // Someone else may buy it now.
    const other = await signedUpClient(t.api, 'suspension.next');
    await t.api.runtime.accounts.setPlan(other.userId, 'monthly');
    const next = await other.client.post(`/api/marketplace/premium-slugs/${slug.id}/payment-intent`);
    expect(next.status, next.text).toBe(200);
  });
});

describe("a payment that goes through after its buyer's suspension", () => {
  // The provider's side of a payment cancelled too late (paid a moment before), so the app of its own.
  const payments = new TestPayments();
  let stripeApi: TestApi;
  let catalogue: HttpClient;
  beforeAll(async () => {
    stripeApi = await startTestApi({ ADMIN_EMAILS: ADMIN_EMAIL }, { payments });
    catalogue = stripeApi.client();
    await catalogue.post('/api/auth/register', { email: ADMIN_EMAIL, password: 'correct horse' });
  });
  afterAll(() => stripeApi.close());

  it('is refunded and recorded, and the slug stays for sale', async () => {
    const buyer = await signedUpClient(stripeApi, 'suspension.late');
    await stripeApi.runtime.accounts.setPlan(buyer.userId, 'monthly');
    const added = await catalogue.post<PremiumSlug>('/api/admin/premium-slugs', { slug: uniqueSlug('late') });
    expect(added.status, added.text).toBe(201);
    const slugId = added.body.id;
    const intent = (
      await buyer.client.post<PremiumPaymentIntent>(`/api/marketplace/premium-slugs/${slugId}/payment-intent`)
    ).body;

    await stripeApi.runtime.accounts.suspend(buyer.userId, null);
    expect(payments.calls).toContainEqual({
      method: 'cancelPayment',
      input: { paymentId: intent.paymentIntentId },
    });
    const { body, signature } = payments.signed(
      paymentIntentEvent('evt_after_suspension', 'payment_intent.succeeded', {
        id: intent.paymentIntentId,
        amount: intent.amount,
        metadata: { premiumSlugId: slugId, premiumHoldId: intent.holdId, userId: buyer.userId },
      }),
    );
    const delivered = await stripeApi.client().post('/api/webhooks/stripe', body, {
      'stripe-signature': signature,
      'content-type': 'application/json',
    });
    expect(delivered.status).toBe(200);

    expect(payments.calls).toContainEqual({
      method: 'refundPayment',
      input: expect.objectContaining({ paymentId: intent.paymentIntentId }),
    });
    const events = await stripeApi.runtime.eventStore.readStream(`premiumslug-${slugId}`);
    expect(events.map((event) => event.type)).toEqual([
      'PremiumSlugAdded',
      'PremiumSlugHeld',
      'PremiumSlugHoldReleased',
      'PremiumSlugPaymentRefunded',
    ]);
    expect(events[3]?.data).toMatchObject({ buyerId: buyer.userId, reason: 'suspended' });
    const slug = await stripeApi
      .client()
      .get<MarketplaceSlugDetail>(`/api/marketplace/premium-slugs/${slugId}`);
    expect(slug.body).toMatchObject({ available: true, held: false });
  });
});

describe("a suspended account's billing portal", () => {
  it('refuses a portal link made before the suspension, and the old session cannot open another', async () => {
    const { client, userId } = await signedUpClient(t.api, 'suspension.portal');
    const checkout = await client.post('/api/create-subscription', { plan: 'monthly' });
    expect(checkout.status, checkout.text).toBe(200);
    const opened = await client.post<{ url: string }>('/api/billing/portal');
    expect(opened.status, opened.text).toBe(200);
    const portal = new URL(opened.body.url).pathname;
    expect((await t.api.client().get(portal)).status).toBe(200);

    await setSuspended(userId, true);
    const refused = await t.api.client().get(portal);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain('Billing page expired');
    const pressed = await t.api.client().post(`${portal}/end-now`);
    expect(pressed.status).toBe(404);
    expect((await client.post('/api/billing/portal')).status).toBe(401);

    await setSuspended(userId, false);
    expect((await t.api.client().get(portal)).status).toBe(200);
  });
});
