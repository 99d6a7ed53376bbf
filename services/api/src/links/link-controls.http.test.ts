import type { Link, LinkTagCount } from '@sniplink/contracts';
import { fixedClock, uuidV7Ids } from '@sniplink/platform';
import { clickCounts, linkClicks } from '@sniplink/projections';
import { countedClicks, type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';
import { postgresRateLimiters } from '../http/rate-limiter';
import { CodeChangeThrottle } from './code-change-throttle';
import { LinkService } from './link-service';
import { WRONG_PASSWORDS_PER_WINDOW } from './password-guesses';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const TARGET = 'https://example.com/secret-target';

const setup = testApiWithAdmin(`controls-admin.${Date.now()}@example.com`);

async function linkOf(client: HttpClient, body: Record<string, unknown>): Promise<Link> {
  const created = await client.post<Link>('/api/links', { originalUrl: TARGET, ...body });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const visit = (code: string, headers: Record<string, string> = {}) =>
  fetch(`${setup.api.baseUrl}/s/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': BROWSER, ...headers },
  });

const sendPassword = (code: string, password: string, headers: Record<string, string> = {}) =>
  fetch(`${setup.api.baseUrl}/s/${code}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'user-agent': BROWSER, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ password }).toString(),
  });

describe('a password-protected link', () => {
  it('shows a form without the target, redirects on the right password and remembers it for a day', async () => {
    const { client } = await signedUpClient(setup.api, 'password');
    const link = await linkOf(client, { password: 'open sesame' });
    expect(link).toMatchObject({ hasPassword: true, status: 'active' });
    expect(JSON.stringify(link)).not.toContain('open sesame');

    const page = await visit(link.shortCode);
    const html = await page.text();
    expect(page.status).toBe(403);
    expect(html).toContain('This link is password protected');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).not.toContain('secret-target');
    expect([...page.headers.values()].join('\n')).not.toContain('secret-target');
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');

    const wrong = await sendPassword(link.shortCode, 'guess');
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('That password is not right');

    const right = await sendPassword(link.shortCode, 'open sesame');
    expect([right.status, right.headers.get('location')]).toEqual([302, TARGET]);
    const cookie = right.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`Path=/s/${link.shortCode}`);
    expect(cookie).toContain('Max-Age=86400');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');

    const remembered = await visit(link.shortCode, { cookie: cookie.split(';')[0] as string });
    expect([remembered.status, remembered.headers.get('location')]).toEqual([302, TARGET]);
    const forged = await visit(link.shortCode, {
      cookie: 'sniplink_pw=99999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(forged.status).toBe(403);

    // Two redirects (the right password, the remembered visit): the pages and the wrong guess are no click.
    expect((await countedClicks(setup.api, link.id)).clicks).toBe(2);
  });

  it('a new password forgets the old one, removing it redirects everyone, deleting the link deletes its hashes', async () => {
    const { client } = await signedUpClient(setup.api, 'repassword');
    const link = await linkOf(client, { password: 'first' });
    const cookie =
      (await sendPassword(link.shortCode, 'first')).headers.get('set-cookie')?.split(';')[0] ?? '';
    await client.patch(`/api/links/${link.id}`, { password: 'second' });
    expect((await visit(link.shortCode, { cookie })).status).toBe(403);
    const cleared = await client.patch<Link>(`/api/links/${link.id}`, { password: null });
    expect(cleared.body.hasPassword).toBe(false);
    expect((await visit(link.shortCode)).status).toBe(302);
    const hashes = () =>
      setup.api.runtime.database.db
        .selectFrom('link_passwords')
        .select('password_id')
        .where('link_id', '=', link.id)
        .execute();
    expect(await hashes()).toHaveLength(2);
    expect((await client.request('DELETE', `/api/links/${link.id}`)).status).toBe(200);
    expect(await hashes()).toEqual([]);
  });

  it('refuses wrong guesses past the limit per address and link with 429 and Retry-After', async () => {
    const { client } = await signedUpClient(setup.api, 'guesses');
    const link = await linkOf(client, { password: 'right one' });
    const other = await linkOf(client, { password: 'right one' });
    for (let i = 0; i < WRONG_PASSWORDS_PER_WINDOW; i++) {
      expect((await sendPassword(link.shortCode, `wrong ${i}`)).status).toBe(403);
    }
    const refused = await sendPassword(link.shortCode, 'right one');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('location')).toBeNull();
    // Another link of the same address is counted apart.
    expect((await sendPassword(other.shortCode, 'right one')).status).toBe(302);
  });
});

describe('expiry and click limit', () => {
  it('redirects at most maxClicks human clicks, then the expired page (410); bots use none', async () => {
    const { client } = await signedUpClient(setup.api, 'limit');
    const link = await linkOf(client, { maxClicks: 2 });
    expect((await visit(link.shortCode, { 'user-agent': BOT })).status).toBe(302);
    expect((await visit(link.shortCode)).status).toBe(302);
    expect((await visit(link.shortCode, { 'user-agent': BOT })).status).toBe(302);
    expect((await visit(link.shortCode)).status).toBe(302);
    const over = await visit(link.shortCode);
    expect(over.status).toBe(410);
    expect(await over.text()).toContain('This link has expired');
    expect((await visit(link.shortCode, { 'user-agent': BOT })).status).toBe(410);
    const listed = (await client.get<Link[]>('/api/links')).body.find((l) => l.id === link.id);
    expect(listed).toMatchObject({ maxClicks: 2, clicksUsed: 2, status: 'expired' });
  });

  it('sends an expired link to its fallback instead of the expired page', async () => {
    const { client } = await signedUpClient(setup.api, 'fallback');
    const link = await linkOf(client, { maxClicks: 1, fallbackUrl: 'https://example.org/sold-out' });
    expect((await visit(link.shortCode)).headers.get('location')).toBe(TARGET);
    const after = await visit(link.shortCode);
    expect([after.status, after.headers.get('location')]).toEqual([302, 'https://example.org/sold-out']);
  });

  it('refuses an expiry in the past, a limit below 1 and a fallback that is no public URL', async () => {
    const { client } = await signedUpClient(setup.api, 'bad-expiry');
    const past = await client.post('/api/links', { originalUrl: TARGET, expiresAt: '2020-01-01T00:00:00Z' });
    expect([past.status, past.text]).toEqual([
      400,
      expect.stringContaining('expiresAt must be in the future'),
    ]);
    const zero = await client.post('/api/links', { originalUrl: TARGET, maxClicks: 0 });
    expect([zero.status, zero.text]).toEqual([400, expect.stringContaining('maxClicks')]);
    const fallback = await client.post('/api/links', { originalUrl: TARGET, fallbackUrl: 'ftp://x.example' });
    expect([fallback.status, fallback.text]).toEqual([400, expect.stringContaining('fallbackUrl')]);
  });

  it('expires by time, by the service clock for the link JSON and by the time of the visit for the redirect', async () => {
    const { api } = setup;
    const { userId } = await signedUpClient(api, 'expiry');
    const clock = fixedClock('2026-01-01T00:00:00.000Z');
    const db = api.runtime.database.db;
    const links = new LinkService({
      db,
      eventStore: api.runtime.eventStore,
      accounts: api.runtime.accounts,
      readModels: api.runtime.progress,
      publicUrl: api.config.publicUrl,
      ownOrigins: [api.config.publicUrl],
      clickCounts: (linkIds) => clickCounts(db, linkIds),
      linkClicks: (linkId) => linkClicks(db, api.runtime.clickStream, linkId),
      codeChanges: new CodeChangeThrottle(
        { limiters: postgresRateLimiters({ pool: api.runtime.database.pool }) },
        api.config.codeChangesPerDay,
      ),
      clock,
      ids: uuidV7Ids,
    });
    const expiring = await links.create(userId, { originalUrl: TARGET, expiresAt: '2026-01-02T00:00:00Z' });
    expect(expiring).toMatchObject({ expiresAt: '2026-01-02T00:00:00.000Z', status: 'active' });
    clock.set('2026-01-02T00:00:00.000Z');
    expect((await links.get(userId, expiring.id)).status).toBe('expired');
    // The visit is now, long past that day.
    expect((await visit(expiring.shortCode)).status).toBe(410);
    const later = await links.create(userId, { originalUrl: TARGET, expiresAt: '2099-01-01T00:00:00Z' });
    expect((await visit(later.shortCode)).status).toBe(302);
    await expect(
      links.create(userId, { originalUrl: TARGET, expiresAt: '2026-01-01T23:59:59Z' }),
    ).rejects.toMatchObject({ status: 400, field: 'expiresAt' });
  });
});

describe('pause', () => {
  it('answers the paused page (404) and counts no click, until unpaused', async () => {
    const { client, userId } = await signedUpClient(setup.api, 'pause');
    const link = await linkOf(client, {});
    expect((await visit(link.shortCode)).status).toBe(302);
    const paused = await client.patch<Link>(`/api/links/${link.id}`, { paused: true });
    expect(paused.body).toMatchObject({ paused: true, status: 'paused' });
    const page = await visit(link.shortCode);
    expect(page.status).toBe(404);
    expect(page.headers.get('cache-control')).toContain('no-store');
    const html = await page.text();
    expect(html).toContain('This link is paused');
    expect(html).not.toContain('secret-target');
    await client.patch(`/api/links/${link.id}`, { paused: false });
    expect((await visit(link.shortCode)).headers.get('location')).toBe(TARGET);
    expect((await countedClicks(setup.api, link.id)).clicks).toBe(2);
    const recorded = await setup.api.runtime.eventStore.readStream(`link-${link.id}`);
    expect(recorded.slice(1).map((event) => [event.type, event.actorId])).toEqual([
      ['LinkPaused', userId],
      ['LinkUnpaused', userId],
    ]);
  });
});

describe('tags', () => {
  it('keeps tags trimmed and lower-cased, filters and searches the list, and counts them', async () => {
    const { client } = await signedUpClient(setup.api, 'tags');
    const spring = await linkOf(client, { title: 'Spring sale', tags: [' Sales ', 'spring', 'sales'] });
    expect(spring.tags).toEqual(['sales', 'spring']);
    const menu = await linkOf(client, { title: 'Menu', tags: ['food'] });
    await linkOf(client, { title: 'Winter', tags: ['sales'] });
    const bySales = (await client.get<Link[]>('/api/links?tag=SALES')).body.map((l) => l.title);
    expect(bySales).toEqual(['Winter', 'Spring sale']);
    const found = (await client.get<Link[]>('/api/links?search=menu')).body;
    expect(found.map((l) => [l.title, l.shortCode, l.originalUrl])).toEqual([
      [menu.title, menu.shortCode, TARGET],
    ]);
    expect((await client.get<Link[]>(`/api/links?search=${spring.shortCode}&tag=sales`)).body).toHaveLength(
      1,
    );
    expect((await client.get<LinkTagCount[]>('/api/links/tags')).body).toEqual([
      { tag: 'sales', count: 2 },
      { tag: 'food', count: 1 },
      { tag: 'spring', count: 1 },
    ]);
    const edited = await client.patch<Link>(`/api/links/${menu.id}`, { tags: [] });
    expect(edited.body.tags).toEqual([]);
  });

  it('refuses more than 10 tags and tags outside 1-32 letters, digits, - and _ with a 400', async () => {
    const { client } = await signedUpClient(setup.api, 'bad-tags');
    const many = await client.post('/api/links', {
      originalUrl: TARGET,
      tags: Array.from({ length: 11 }, (_, i) => `t${i}`),
    });
    expect([many.status, many.text]).toEqual([400, expect.stringContaining('at most 10 tags')]);
    for (const tag of ['', 'has space', 'x'.repeat(33), 'émoji']) {
      const bad = await client.post('/api/links', { originalUrl: TARGET, tags: [tag] });
      expect([bad.status, bad.text]).toEqual([400, expect.stringContaining('each tag must be')]);
    }
  });
});

describe('controls kept for Pro by the admin', () => {
  it('refuses a restricted control to a Free account as the link limit does, and allows it to Pro', async () => {
    const { api, admin } = setup;
    expect(
      (await admin.post('/api/admin/config', { key: 'links.password.pro_only', value: '1' })).status,
    ).toBe(201);
    try {
      const free = await signedUpClient(api, 'free');
      const refused = await free.client.post<{ code: string; message: string }>('/api/links', {
        originalUrl: TARGET,
        password: 'p',
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        code: 'SUBSCRIPTION_REQUIRED',
        message: expect.stringContaining('Upgrade to Pro'),
      });
      // Other controls stay open, and clearing a password is never refused.
      const tagged = await linkOf(free.client, { tags: ['ok'], password: null });
      expect(tagged.tags).toEqual(['ok']);
      const pro = await signedUpClient(api, 'pro');
      await api.runtime.accounts.setPlan(pro.userId, 'monthly');
      expect((await linkOf(pro.client, { password: 'p' })).hasPassword).toBe(true);
    } finally {
      await admin.request('DELETE', '/api/admin/config/links.password.pro_only');
    }
  });
});
