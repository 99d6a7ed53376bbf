import type {
  AdminPremiumSlugsPage,
  MarketplaceSlug,
  MarketplaceSlugDetail,
  OwnedPremiumSlug,
  PremiumPaymentIntent,
  PremiumPurchase,
} from '@sniplink/contracts';
import { premiumBuyerStream } from '@sniplink/contracts';
import { premiumBuyerDecider, premiumSlugsCounted } from '@sniplink/domain';
import { createLogger, fixedClock, loadState } from '@sniplink/platform';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { addedPremiumSlug, uniqueSlug } from '@sniplink/test-support/premium';
import { describe, expect, it } from 'vitest';
import { chargeRefundedEvent, paymentIntentEvent, TestPayments } from '../billing/testing';
import { fixedSettings } from '../shared/settings';
import { PremiumPurchaseService } from './premium-purchase-service';

const ADMIN_EMAIL = 'purchase.admin@example.com';

const payments = new TestPayments();
const t = testApiWithAdmin(ADMIN_EMAIL, { payments });

const addSlug = (price?: number) =>
  addedPremiumSlug(t.admin, { slug: uniqueSlug('buy'), ...(price === undefined ? {} : { price }) });

/** A signed-in user with Pro (an operator's grant), or Free. */
async function buyer(label: string, pro = true): Promise<{ client: HttpClient; userId: string }> {
  const signedUp = await signedUpClient(t.api, label);
  if (pro) await t.api.runtime.accounts.setPlan(signedUp.userId, 'monthly');
  return signedUp;
}

const startPurchase = (client: HttpClient, slugId: string) =>
  client.post<PremiumPaymentIntent & { message: string; requiresPro?: boolean; currentCount?: number }>(
    `/api/marketplace/premium-slugs/${slugId}/payment-intent`,
  );

/** The provider's event about `intent`, signed as Stripe's, delivered to the webhook route. */
async function deliver(
  eventId: string,
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'payment_intent.canceled',
  intent: PremiumPaymentIntent,
  buyerId: string,
  slugId: string,
): Promise<number> {
  const { body, signature } = payments.signed(
    paymentIntentEvent(eventId, type, {
      id: intent.paymentIntentId,
      amount: intent.amount,
      metadata: { premiumSlugId: slugId, premiumHoldId: intent.holdId, userId: buyerId, slug: intent.slug },
    }),
  );
  const response = await t.api.client().post('/api/webhooks/stripe', body, {
    'stripe-signature': signature,
    'content-type': 'application/json',
  });
  return response.status;
}

/** `charge.refunded` for the payment of `intent`, signed as Stripe's, delivered to the webhook route. */
async function deliverRefund(eventId: string, intent: PremiumPaymentIntent): Promise<number> {
  const { body, signature } = payments.signed(
    chargeRefundedEvent(eventId, { id: intent.paymentIntentId, amount: intent.amount }),
  );
  const response = await t.api.client().post('/api/webhooks/stripe', body, {
    'stripe-signature': signature,
    'content-type': 'application/json',
  });
  return response.status;
}

const purchaseOf = async (client: HttpClient, intent: PremiumPaymentIntent) =>
  (await client.get<PremiumPurchase>(`/api/marketplace/purchases/${intent.paymentIntentId}`)).body;

const slugState = async (slugId: string) =>
  (await t.api.client().get<MarketplaceSlugDetail>(`/api/marketplace/premium-slugs/${slugId}`)).body;
const forSale = async () =>
  (await t.api.client().get<MarketplaceSlug[]>('/api/marketplace/premium-slugs')).body.map((slug) => slug.id);

describe('starting a purchase', () => {
  it('answers 401 signed out, 403 {requiresPro} for a Free user, 404 for an unknown slug', async () => {
    const slug = await addSlug();
    const signedOut = await startPurchase(t.api.client(), slug.id);
    expect(signedOut.status).toBe(401);
    const free = await buyer('purchase.free', false);
    const refused = await startPurchase(free.client, slug.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: expect.any(String), requiresPro: true });
    const pro = await buyer('purchase.unknown');
    expect((await startPurchase(pro.client, '01890000-0000-7000-8000-0000000000ff')).status).toBe(404);
    expect((await startPurchase(pro.client, 'not-an-id')).status).toBe(404);
  });

  it('holds the slug and makes a payment for its price with slug and hold ids, keyed per hold; asking again gives the same', async () => {
    const slug = await addSlug(4900);
    const { client, userId } = await buyer('purchase.hold');
    const first = await startPurchase(client, slug.id);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      clientSecret: expect.any(String),
      paymentIntentId: expect.any(String),
      slug: slug.slug,
      amount: 4900,
      currency: 'usd',
    });
    const made = payments.calls.filter((call) => call.method === 'createPayment').at(-1)?.input;
    expect(made).toMatchObject({
      amount: 4900,
      metadata: { premiumSlugId: slug.id, premiumHoldId: first.body.holdId, userId },
      idempotencyKey: `premium-hold-${first.body.holdId}`,
    });
    const again = await startPurchase(client, slug.id);
    expect(again.body.paymentIntentId).toBe(first.body.paymentIntentId);
    expect(await slugState(slug.id)).toMatchObject({ available: true, held: true });
    expect(await forSale()).not.toContain(slug.id);
  });

  it('50 buyers racing for one slug: exactly one hold, every other answer a clean 409, then one owner', async () => {
    const slug = await addSlug();
    const buyers: { client: HttpClient; userId: string }[] = [];
    for (let batch = 0; batch < 5; batch++)
      buyers.push(...(await Promise.all(Array.from({ length: 10 }, () => buyer('purchase.race')))));
    const answers = await Promise.all(buyers.map(({ client }) => startPurchase(client, slug.id)));
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.filter((answer) => answer.status !== 200);
    expect(lost.map((answer) => answer.status)).toEqual(Array(49).fill(409));
    for (const answer of lost) expect(answer.body.message).toEqual(expect.any(String));

    const winner = buyers[answers.findIndex((answer) => answer.status === 200)];
    if (!winner || !won[0]) throw new Error('no winner');
    expect(
      await deliver(`evt_race_${slug.id}`, 'payment_intent.succeeded', won[0].body, winner.userId, slug.id),
    ).toBe(200);
    const page = await t.admin.get<AdminPremiumSlugsPage>(`/api/admin/premium-slugs?search=${slug.slug}`);
    // Bought: not for sale, though its listing (the admin's switch) stays on.
    expect(page.body.slugs[0]).toMatchObject({
      id: slug.id,
      ownerId: winner.userId,
      isAvailable: false,
      isListed: true,
    });
    expect(page.body.stats.owned).toBeGreaterThanOrEqual(1);
    expect(page.body.stats.revenue).toBeGreaterThanOrEqual(2500);
    const loser = buyers.find((candidate) => candidate !== winner);
    if (!loser) throw new Error('no loser');
    const after = await startPurchase(loser.client, slug.id);
    expect(after.status).toBe(409);
    expect(after.body.message).toMatch(/already been purchased/);
  });

  it('one user at 2 owned slugs starting 5 purchases at once: never more than 3 owned or held; 409 carries currentCount', async () => {
    const { client, userId } = await buyer('purchase.limit');
    for (let owned = 0; owned < 2; owned++) {
      const slug = await addSlug();
      const intent = await startPurchase(client, slug.id);
      expect(
        await deliver(`evt_own_${slug.id}`, 'payment_intent.succeeded', intent.body, userId, slug.id),
      ).toBe(200);
    }
    const mine = await client.get<{ slug: string; pricePaid: number }[]>('/api/marketplace/my-premium-slugs');
    expect(mine.body.map((slug) => slug.pricePaid)).toEqual([2500, 2500]);
    expect((await client.get<unknown[]>('/api/user/premium-slugs')).body).toEqual(mine.body);
    expect((await t.api.client().get('/api/marketplace/my-premium-slugs')).status).toBe(401);
    const slugs = await Promise.all(Array.from({ length: 5 }, () => addSlug()));
    const answers = await Promise.all(slugs.map((slug) => startPurchase(client, slug.id)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(4);
    for (const answer of refused)
      expect(answer.body).toMatchObject({ message: expect.any(String), currentCount: 3 });
    const state = await loadState(
      t.api.runtime.eventStore,
      premiumBuyerStream.id(userId),
      premiumBuyerDecider,
    );
    expect(premiumSlugsCounted(state, new Date())).toBe(3);
    // The refused ones hold nothing: they are still for sale.
    const open = await forSale();
    const held = slugs.filter((slug) => !open.includes(slug.id));
    expect(held).toHaveLength(1);
  });

  it('409 when the slug is held by someone else', async () => {
    const slug = await addSlug();
    expect((await startPurchase((await buyer('purchase.first')).client, slug.id)).status).toBe(200);
    const second = await startPurchase((await buyer('purchase.second')).client, slug.id);
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/someone else/i);
  });
});

describe("the provider's events", () => {
  it('the success event delivered twice makes one owner; the success page shows it', async () => {
    const slug = await addSlug();
    const { client, userId } = await buyer('purchase.twice');
    const intent = (await startPurchase(client, slug.id)).body;
    const statuses = await Promise.all([
      deliver('evt_twice', 'payment_intent.succeeded', intent, userId, slug.id),
      deliver('evt_twice', 'payment_intent.succeeded', intent, userId, slug.id),
    ]);
    expect(statuses).toEqual([200, 200]);
    expect(await deliver('evt_twice_again', 'payment_intent.succeeded', intent, userId, slug.id)).toBe(200);
    const events = await t.api.runtime.eventStore.readStream(`premiumslug-${slug.id}`);
    expect(events.filter((event) => event.type === 'PremiumSlugPurchased')).toHaveLength(1);
    const buyerEvents = await t.api.runtime.eventStore.readStream(premiumBuyerStream.id(userId));
    expect(buyerEvents.filter((event) => event.type === 'PremiumBuyerSlugOwned')).toHaveLength(1);
    const purchase = await client.get<PremiumPurchase>(
      `/api/marketplace/purchases/${intent.paymentIntentId}`,
    );
    expect(purchase.body).toEqual({
      slugId: slug.id,
      slug: slug.slug,
      paymentIntentId: intent.paymentIntentId,
      amount: 2500,
      status: 'complete',
    });
    const someoneElse = await buyer('purchase.nosy');
    expect(
      (await someoneElse.client.get(`/api/marketplace/purchases/${intent.paymentIntentId}`)).status,
    ).toBe(404);
    expect((await slugState(slug.id)).available).toBe(false);
    // An owned slug stays in the catalogue: the admin's delete is refused, and it is still there.
    const deleted = await t.admin.request('DELETE', `/api/admin/premium-slugs/${slug.id}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body).toMatchObject({
      code: 'CONFLICT',
      message: 'This premium slug is owned and cannot be deleted',
    });
    expect((await slugState(slug.id)).available).toBe(false);
  });

  it('a failed or canceled payment releases the hold: the slug is for sale again', async () => {
    for (const type of ['payment_intent.payment_failed', 'payment_intent.canceled'] as const) {
      const slug = await addSlug();
      const { client, userId } = await buyer('purchase.fail');
      const intent = (await startPurchase(client, slug.id)).body;
      expect(await forSale()).not.toContain(slug.id);
      expect(await deliver(`evt_${type}_${slug.id}`, type, intent, userId, slug.id)).toBe(200);
      expect(await forSale()).toContain(slug.id);
      expect((await startPurchase((await buyer('purchase.next')).client, slug.id)).status).toBe(200);
    }
  });
});

describe('refunds made at the provider', () => {
  it("a full refund in the provider's dashboard takes the slug back: refunded on the success page, for sale again", async () => {
    const slug = await addSlug();
    const { client, userId } = await buyer('purchase.refunded');
    const intent = (await startPurchase(client, slug.id)).body;
    expect(await deliver('evt_bought', 'payment_intent.succeeded', intent, userId, slug.id)).toBe(200);
    const target = await client.request('PUT', `/api/marketplace/premium-slugs/${slug.slug}/url`, {
      url: 'https://example.com/deal',
    });
    expect(target.status, target.text).toBe(200);
    // Visited once, so the redirect caches hold the target.
    expect((await t.api.client().get(`/s/${slug.slug}`)).status).toBe(302);
    payments.refundedAtProvider(intent.paymentIntentId);
    const deliveries = await Promise.all([
      deliverRefund('evt_refund', intent),
      deliverRefund('evt_refund', intent),
    ]);
    expect(deliveries).toEqual([200, 200]);
    expect(await deliverRefund('evt_refund_copy', intent)).toBe(200);

    expect(await purchaseOf(client, intent)).toMatchObject({
      slug: slug.slug,
      amount: 2500,
      status: 'refunded',
    });
    expect((await client.get<OwnedPremiumSlug[]>('/api/marketplace/my-premium-slugs')).body).toEqual([]);
    expect(await slugState(slug.id)).toMatchObject({ available: true, held: false });
    expect(await forSale()).toContain(slug.id);
    const page = await t.api.client().get(`/s/${slug.slug}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('This premium link is not set up yet');
    const events = await t.api.runtime.eventStore.readStream(`premiumslug-${slug.id}`);
    expect(events.filter((event) => event.type === 'PremiumSlugPurchaseRefunded')).toHaveLength(1);
    const owner = await loadState(
      t.api.runtime.eventStore,
      premiumBuyerStream.id(userId),
      premiumBuyerDecider,
    );
    expect(premiumSlugsCounted(owner, new Date())).toBe(0);
    // The payment buys nothing again, even when its success event comes once more.
    expect(await deliver('evt_bought_late', 'payment_intent.succeeded', intent, userId, slug.id)).toBe(200);
    expect(await purchaseOf(client, intent)).toMatchObject({ status: 'refunded' });
    // Someone else may buy it now.
    const next = await buyer('purchase.after.refund');
    expect((await startPurchase(next.client, slug.id)).status).toBe(200);
  });

  it('a partial refund leaves the slug its buyer’s; a refund of a payment the provider does not know changes nothing', async () => {
    const slug = await addSlug();
    const { client, userId } = await buyer('purchase.partial');
    const intent = (await startPurchase(client, slug.id)).body;
    expect(await deliver('evt_partial_bought', 'payment_intent.succeeded', intent, userId, slug.id)).toBe(
      200,
    );
    expect(await deliverRefund('evt_partial', intent)).toBe(200);
    expect(await purchaseOf(client, intent)).toMatchObject({ status: 'complete' });
    const head = await t.api.runtime.eventStore.headPosition();
    const unknown = { ...intent, paymentIntentId: 'pi_nobody_knows' };
    expect(await deliverRefund('evt_unknown_refund', unknown)).toBe(200);
    expect(await t.api.runtime.eventStore.headPosition()).toEqual(head);
  });

  it('a refund while the provider cannot be reached is answered 503, to be sent again', async () => {
    const slug = await addSlug();
    const { client, userId } = await buyer('purchase.refund.down');
    const intent = (await startPurchase(client, slug.id)).body;
    expect(await deliver('evt_down_bought', 'payment_intent.succeeded', intent, userId, slug.id)).toBe(200);
    payments.refundedAtProvider(intent.paymentIntentId);
    payments.failing = true;
    try {
      expect(await deliverRefund('evt_down_refund', intent)).toBe(503);
    } finally {
      payments.failing = false;
    }
    expect(await purchaseOf(client, intent)).toMatchObject({ status: 'complete' });
    expect(await deliverRefund('evt_down_refund', intent)).toBe(200);
    expect(await purchaseOf(client, intent)).toMatchObject({ status: 'refunded' });
  });
});

describe('holds on a fixed clock', () => {
  it('an expired hold releases the slug by itself; a late payment on a slug sold meanwhile is refunded and recorded', async () => {
    const clock = fixedClock('2031-03-01T10:00:00Z');
    const service = new PremiumPurchaseService({
      eventStore: t.api.runtime.eventStore,
      db: t.api.runtime.database.db,
      readModels: t.api.runtime.progress,
      settings: fixedSettings(),
      payments,
      log: createLogger('silent'),
      clock,
      ids: { newId: () => crypto.randomUUID() },
      ownOrigins: [],
    });
    const slug = await addSlug();
    const late = await buyer('purchase.late');
    const prompt = await buyer('purchase.prompt');
    const held = await service.startPurchase(late.userId, slug.id);
    clock.advance(14 * 60_000);
    await expect(service.startPurchase(prompt.userId, slug.id)).rejects.toMatchObject({ status: 409 });
    clock.advance(2 * 60_000);
    // 16 minutes on: the first hold is over, decided now; the slug is the next buyer's to hold.
    expect(await service.slug(slug.id)).toMatchObject({ available: true, held: false });
    const next = await service.startPurchase(prompt.userId, slug.id);
    const succeeded = (intent: PremiumPaymentIntent, userId: string, eventId: string) =>
      service.applyPaymentEvent('payment_intent.succeeded', eventId, {
        id: intent.paymentIntentId,
        amount: intent.amount,
        currency: 'usd',
        metadata: { premiumSlugId: slug.id, premiumHoldId: intent.holdId, userId },
        failureMessage: null,
      });
    await succeeded(next, prompt.userId, 'evt_prompt');
    await succeeded(held, late.userId, 'evt_late');
    await succeeded(held, late.userId, 'evt_late_copy');

    const events = await t.api.runtime.eventStore.readStream(`premiumslug-${slug.id}`);
    expect(events.map((event) => event.type)).toEqual([
      'PremiumSlugAdded',
      'PremiumSlugHeld',
      'PremiumSlugHoldReleased',
      'PremiumSlugHeld',
      'PremiumSlugPurchased',
      'PremiumSlugPaymentRefunded',
    ]);
    expect(events[2]?.data).toMatchObject({ reason: 'expired', holdId: held.holdId });
    expect(events[4]?.data).toMatchObject({ buyerId: prompt.userId });
    expect(events[5]?.data).toMatchObject({
      buyerId: late.userId,
      paymentId: held.paymentIntentId,
      reason: 'owned',
    });
    const refunds = payments.calls.filter(
      (call) =>
        call.method === 'refundPayment' &&
        (call.input as { paymentId: string }).paymentId === held.paymentIntentId,
    );
    // Applied twice, refunded at most twice with one key (the provider makes one refund), recorded once.
    expect(refunds.length).toBeGreaterThanOrEqual(1);
    for (const refund of refunds)
      expect(refund.input).toMatchObject({ idempotencyKey: `premium-refund-${held.paymentIntentId}` });
    // The late buyer's success page says refunded, not processing; the provider's own `charge.refunded`
    // for that refund adds nothing.
    expect(await deliverRefund('evt_late_refund', held)).toBe(200);
    expect(await purchaseOf(late.client, held)).toEqual({
      slugId: slug.id,
      slug: slug.slug,
      paymentIntentId: held.paymentIntentId,
      amount: 2500,
      status: 'refunded',
    });
    expect(await purchaseOf(prompt.client, next)).toMatchObject({ status: 'complete' });
    expect(await t.api.runtime.eventStore.readStream(`premiumslug-${slug.id}`)).toHaveLength(events.length);
    const lateBuyer = await loadState(
      t.api.runtime.eventStore,
      premiumBuyerStream.id(late.userId),
      premiumBuyerDecider,
    );
    expect(premiumSlugsCounted(lateBuyer, clock.now())).toBe(0);
  });
});
