import { DEMO_LINK_LIFETIME_DAYS, type Link } from '@sniplink/contracts';
import {
  appSecret,
  createLogger,
  type FixedClock,
  fixedClock,
  type IdSource,
  sequentialIds,
} from '@sniplink/platform';
import { clickCounts, linkClicks } from '@sniplink/projections';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService } from './accounts/accounts';
import { LoginThrottle } from './accounts/login-throttle';
import { SessionStore } from './accounts/sessions';
import { BillingService } from './billing/billing-service';
import { subscriptionEvent, TestPayments } from './billing/testing';
import { receiveWebhook } from './billing/webhooks';
import { DemoService } from './demo/demo-service';
import { DemoThrottle } from './demo/demo-throttle';
import { postgresRateLimiters } from './http/rate-limiter';
import { CodeChangeThrottle } from './links/code-change-throttle';
import { LinkService } from './links/link-service';
import { fixedSettings } from './shared/settings';

/**
 * The app's services on the test's own clock and ids, over the real database and projections: what a
 * user sees at an instant is what the rules say for that instant, whenever the suite runs.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/**
 * AccountService, LinkService and DemoService as runtime.ts composes them, and BillingService and the
 * webhook's dependencies as composition.ts does (on a test double of the provider), but on `clock` and `ids`.
 */
async function servicesOn(clock: FixedClock, ids: IdSource) {
  const { runtime, config } = api;
  const { db, pool } = runtime.database;
  const accounts = new AccountService({
    db,
    eventStore: runtime.eventStore,
    keyring: runtime.keyring,
    emailSecret: await appSecret(db, 'email-hash'),
    sessions: runtime.sessions,
    throttle: new LoginThrottle({ limiters: postgresRateLimiters({ pool }) }, config.loginLimits),
    readModels: runtime.progress,
    adminEmails: [],
    settings: fixedSettings(),
    clock,
    ids,
  });
  const links = new LinkService({
    db,
    eventStore: runtime.eventStore,
    accounts,
    readModels: runtime.progress,
    publicUrl: config.publicUrl,
    ownOrigins: [config.publicUrl],
    clickCounts: (linkIds) => clickCounts(db, linkIds),
    linkClicks: (linkId) => linkClicks(db, runtime.clickStream, linkId),
    codeChanges: new CodeChangeThrottle(
      { limiters: postgresRateLimiters({ pool }) },
      config.codeChangesPerDay,
    ),
    moderation: runtime.moderation,
    clock,
    ids,
  });
  const demo = new DemoService({
    db,
    eventStore: runtime.eventStore,
    accounts,
    links,
    readModels: runtime.progress,
    throttle: new DemoThrottle(
      { limiters: postgresRateLimiters({ pool }), settings: fixedSettings() },
      config.demoLimits,
    ),
    moderation: runtime.moderation,
    clock,
  });
  const payments = new TestPayments();
  const log = createLogger('silent');
  const billing = new BillingService({
    eventStore: runtime.eventStore,
    db,
    payments,
    accounts,
    readModels: runtime.progress,
    publicUrl: config.publicUrl,
    log,
    clock,
  });
  const webhooks = { billing, payments, log };
  return { accounts, links, demo, payments, webhooks };
}

describe('services on a fixed clock', () => {
  it('counts links created this month from 00:00 UTC on the 1st: one at 23:59:59 on Jan 31 is gone from February', async () => {
    const clock = fixedClock('2026-01-31T23:59:59.000Z');
    const ids = sequentialIds(1);
    const { accounts, links } = await servicesOn(clock, ids);
    const userId = await accounts.register({
      email: 'month.boundary@example.com',
      password: 'correct horse',
    });
    expect(userId).toBe('01890000-0001-7000-8000-000000000001');
    await accounts.setPlan(userId, 'monthly');

    const january = await links.create(userId, { originalUrl: 'https://example.com/january', title: null });
    expect(january).toMatchObject({
      id: '01890000-0001-7000-8000-000000000002',
      createdAt: '2026-01-31T23:59:59.000Z',
    });
    expect((await accounts.requireUser(userId)).linksCreatedThisMonth).toBe(1);

    clock.advance(1_000);
    expect((await accounts.requireUser(userId)).linksCreatedThisMonth).toBe(0);
    await links.create(userId, { originalUrl: 'https://example.com/february', title: null });
    expect((await accounts.requireUser(userId)).linksCreatedThisMonth).toBe(1);
    const slots = (await api.runtime.eventStore.readStream(`user-${userId}`)).filter(
      (event) => event.type === 'LinkSlotTaken',
    );
    expect(slots.map((event) => [event.data, event.occurredAt.toISOString()])).toEqual([
      [{ linkId: '01890000-0001-7000-8000-000000000002', month: '2026-01' }, '2026-01-31T23:59:59.000Z'],
      [{ linkId: '01890000-0001-7000-8000-000000000003', month: '2026-02' }, '2026-02-01T00:00:00.000Z'],
    ]);
  });

  it(`keeps a visitor's demo link for ${DEMO_LINK_LIFETIME_DAYS} days to the millisecond; then it is neither listed nor claimed`, async () => {
    const clock = fixedClock('2026-03-01T12:00:00.000Z');
    const { accounts, demo } = await servicesOn(clock, sequentialIds(2));
    const visitor = 'AAAAAAAAAAAAAAAAAAAAAA';
    const made = await demo.shortenAsVisitor(visitor, 'https://example.com/demo', '198.51.100.7');
    expect(made.id).toBe('01890000-0002-7000-8000-000000000001');

    clock.set('2026-03-08T11:59:59.999Z');
    expect((await demo.listForVisitor(visitor)).map((link) => link.id)).toEqual([made.id]);
    clock.set('2026-03-08T12:00:00.000Z');
    expect(await demo.listForVisitor(visitor)).toEqual([]);
    const userId = await accounts.register({ email: 'late.claim@example.com', password: 'correct horse' });
    expect(await demo.claim(visitor, userId)).toBe(0);
  });

  it('ends a session after its idle minutes and at its absolute end, as the clock reads them', async () => {
    const clock = fixedClock('2026-04-01T08:00:00.000Z');
    const sessions = new SessionStore(api.runtime.database.db, { idleMinutes: 60, maxDays: 1 }, clock);
    const userId = sequentialIds(3).newId();
    const idle = await sessions.create(userId, undefined);
    clock.advance(60 * 60_000 - 1);
    expect(await sessions.resolve(idle.token)).toMatchObject({ userId }); // and seen again now
    clock.advance(60 * 60_000 - 1);
    expect(await sessions.resolve(idle.token)).toMatchObject({ userId });
    clock.advance(60 * 60_000);
    expect(await sessions.resolve(idle.token)).toBeNull();

    const busy = await sessions.create(userId, undefined);
    const end = clock.now().getTime() + 24 * 3_600_000;
    while (clock.now().getTime() + 30 * 60_000 < end) {
      clock.advance(30 * 60_000);
      expect(await sessions.resolve(busy.token)).toMatchObject({ userId });
    }
    clock.set(new Date(end).toISOString());
    expect(await sessions.resolve(busy.token)).toBeNull();
  });
});

describe('Pro over time, on a fixed clock', () => {
  it('keeps a past-due user Pro until the period ends, then Free; every link still redirects', async () => {
    const clock = fixedClock('2027-03-10T12:00:00.000Z');
    const { accounts, links, payments, webhooks } = await servicesOn(clock, sequentialIds(4));
    const userId = await accounts.register({ email: 'past.due@example.com', password: 'correct horse' });
    const made: Link[] = [];
    const create = async () => {
      made.push(
        await links.create(userId, { originalUrl: `https://example.com/${made.length}`, title: null }),
      );
    };
    for (let i = 0; i < 5; i++) await create();
    await expect(create()).rejects.toMatchObject({ code: 'SUBSCRIPTION_REQUIRED' });

    const periodEnd = new Date('2027-04-10T12:00:00.000Z');
    const subscription = {
      id: 'sub_over_time',
      customerId: 'cus_over_time',
      userId,
      plan: 'monthly' as const,
      status: 'active' as const,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
      amount: 200,
      currency: 'usd',
    };
    const deliver = async (id: string, type: string) => {
      const { body, signature } = payments.signed(subscriptionEvent(id, type, subscription));
      await receiveWebhook(webhooks, Buffer.from(body), signature);
    };
    payments.hold(subscription);
    await deliver('evt_paid', 'checkout.session.completed');
    await create();
    payments.hold({ ...subscription, status: 'past_due' });
    await deliver('evt_failed', 'invoice.payment_failed');
    expect(await accounts.requireUser(userId)).toMatchObject({
      subscriptionStatus: 'active',
      billing: { periodEnd: periodEnd.toISOString(), paymentFailed: true },
      linkAllowance: { period: 'month', used: 6, limit: 500 },
    });

    clock.set('2027-04-10T11:59:59.999Z');
    await create();
    clock.set(periodEnd.toISOString());
    expect(await accounts.requireUser(userId)).toMatchObject({
      subscriptionStatus: 'inactive',
      subscriptionPlan: null,
      billing: { periodEnd: null, paymentFailed: false, canManage: true },
      linkAllowance: { period: 'lifetime', used: 7, limit: 5, remaining: 0 },
    });
    await expect(create()).rejects.toMatchObject({ code: 'SUBSCRIPTION_REQUIRED', status: 403 });

    for (const link of made) {
      const visit = await fetch(`${api.baseUrl}/s/${link.shortCode}`, { redirect: 'manual' });
      expect([visit.status, visit.headers.get('location')]).toEqual([302, link.originalUrl]);
    }
  });
});
