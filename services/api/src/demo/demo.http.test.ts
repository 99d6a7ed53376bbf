import type { DemoLink, ErrorBody, Link } from '@sniplink/contracts';
import { withReadModels } from '@sniplink/projections';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: TestApi;
beforeAll(async () => {
  // TRUST_PROXY: each test speaks from an address of its own (X-Forwarded-For), so the per-address
  // limits of one test never reach another.
  api = await startTestApi({ PUBLIC_URL: 'https://snip.example.com', TRUST_PROXY: '1' });
});
afterAll(() => api.close());

let addresses = 0;
const nextAddress = () => `203.0.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

/** A browser with its own cookie jar, at the given client address. */
function browser(ip = nextAddress()) {
  const client = api.client();
  const from = { 'x-forwarded-for': ip };
  return {
    client,
    ip,
    shorten: (url: string) => client.post<DemoLink>('/api/demo/shorten', { url }, from),
    list: () => client.get<DemoLink[]>('/api/demo/links', from),
    post: <T>(path: string, body: unknown) => client.post<T>(path, body, from),
  };
}

const codeOf = (link: DemoLink) => new URL(link.shortUrl).pathname.slice('/s/'.length);
const follow = (link: DemoLink) => api.client().get(`/s/${codeOf(link)}`);

/** Makes the links 8 days old in the read model and makes the redirect cache read them again. */
async function age(links: DemoLink[]): Promise<void> {
  const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
  const ids = links.map((link) => link.id);
  await withReadModels(api.runtime.database.db)
    .updateTable('rm_links')
    .set({ created_at: eightDaysAgo })
    .where('link_id', 'in', ids)
    .execute();
  api.runtime.linkCache.clear();
}

async function shortenMany(visitor: ReturnType<typeof browser>, count: number): Promise<DemoLink[]> {
  const made: DemoLink[] = [];
  for (let i = 0; i < count; i++) {
    const response = await visitor.shorten(`https://example.com/demo/${i}`);
    expect(response.status).toBe(201);
    made.push(response.body);
  }
  return made;
}

/** Another browser that carries only the visitor cookie: what the visitor (not the account) owns. */
function visitorOnly(from: HttpClient) {
  const other = browser();
  const visitorId = from.cookies.get('visitor');
  if (visitorId) other.client.cookies.set('visitor', visitorId);
  return other;
}

let accounts = 0;
const credentials = () => ({
  email: `demo.${Date.now()}.${++accounts}@example.com`,
  password: 'correct horse',
});

describe('the demo shortener for visitors', () => {
  it('answers 201 with id, shortUrl, originalUrl and a visitor cookie; the link redirects', async () => {
    const visitor = browser();
    const response = await visitor.shorten('https://example.com/a/long/path?x=1');
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shortUrl: expect.stringMatching(/^https:\/\/snip\.example\.com\/s\/[a-z0-9]{7}$/),
      originalUrl: 'https://example.com/a/long/path?x=1',
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('visitor='));
    expect(setCookie).toMatch(/^visitor=[A-Za-z0-9_-]{22};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    const redirect = await follow(response.body);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/a/long/path?x=1');
  });

  it("lists the visitor's links newest first; another visitor, or a forged cookie, sees none", async () => {
    const visitor = browser();
    const made = await shortenMany(visitor, 3);
    const listed = await visitor.list();
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(made.reverse());
    expect((await browser().list()).body).toEqual([]);
    const forged = browser();
    forged.client.cookies.set('visitor', `${visitor.client.cookies.get('visitor')}'--`);
    expect((await forged.list()).body).toEqual([]);
    // A malformed id is never used as an owner: the forger gets a fresh id of its own.
    const fresh = await forged.shorten('https://example.com/mine');
    expect(fresh.status).toBe(201);
    expect(forged.client.cookies.get('visitor')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await forged.list()).body).toEqual([fresh.body]);
  });

  it('refuses a bad URL with 400 INVALID_URL, without using up the allowance', async () => {
    const visitor = browser();
    for (const url of [
      'not a url',
      'ftp://example.com/',
      'http://localhost/',
      'https://snip.example.com/s/x',
    ]) {
      const response = await visitor.shorten(url);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_URL', field: 'url' });
    }
    await shortenMany(visitor, 5);
  });

  it('gives one visitor 5 demo links per 24 h: the 6th is 429 RATE_LIMITED with Retry-After', async () => {
    const visitor = browser();
    await shortenMany(visitor, 5);
    const sixth = await visitor.shorten('https://example.com/sixth');
    expect(sixth.status).toBe(429);
    expect((sixth.body as unknown as ErrorBody).code).toBe('RATE_LIMITED');
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 60 * 60);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect((await visitor.list()).body).toHaveLength(5);
  });

  it('gives one address 20 demo links per 24 h, whatever the visitors: the 21st is 429', async () => {
    const ip = nextAddress();
    for (let i = 0; i < 4; i++) await shortenMany(browser(ip), 5);
    const twentyFirst = await browser(ip).shorten('https://example.com/21st');
    expect(twentyFirst.status).toBe(429);
    expect((twentyFirst.body as unknown as ErrorBody).code).toBe('RATE_LIMITED');
    expect(Number(twentyFirst.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await browser().shorten('https://example.com/elsewhere')).status).toBe(201);
  });

  it('allows 30 demo requests a minute from one address: the 31st is 429 with Retry-After', async () => {
    const visitor = browser();
    for (let i = 0; i < 30; i++) expect((await visitor.list()).status).toBe(200);
    const over = await visitor.list();
    expect(over.status).toBe(429);
    expect((over.body as unknown as ErrorBody).code).toBe('RATE_LIMITED');
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await visitor.shorten('https://example.com/')).status).toBe(429);
  });

  it('lets an unclaimed demo link expire after 7 days: 410 with a page that leads to sign-up', async () => {
    const visitor = browser();
    const [link] = await shortenMany(visitor, 1);
    if (!link) throw new Error('no link');
    expect((await follow(link)).status).toBe(302);
    await age([link]);
    const gone = await follow(link);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toMatch(/^text\/html/);
    expect(gone.headers.get('location')).toBeNull();
    expect(gone.text).toContain('This demo link has expired');
    expect(gone.text).toContain('Sniplink');
    expect(gone.text).toContain('href="/api/login?tab=create"');
    expect((await visitor.list()).body).toEqual([]);
  });
});

describe('claiming demo links at sign-up and sign-in', () => {
  it('moves 3 demo links into the new account, where they redirect and no longer expire', async () => {
    const visitor = browser();
    const made = await shortenMany(visitor, 3);
    const registered = await visitor.post<{ linksCreatedThisMonth: number }>(
      '/api/auth/register',
      credentials(),
    );
    expect(registered.status).toBe(201);
    const links = (await visitor.client.get<Link[]>('/api/links')).body;
    expect(links.map((link) => link.id).sort()).toEqual(made.map((link) => link.id).sort());
    expect(
      (await visitor.client.get<{ linksCreatedThisMonth: number }>('/api/auth/user')).body,
    ).toMatchObject({
      linksCreatedThisMonth: 3,
    });
    expect((await visitorOnly(visitor.client).list()).body).toEqual([]);
    expect((await visitor.list()).body).toHaveLength(3); // signed in: the account's demo-made links
    await age(made);
    for (const link of made) expect((await follow(link)).status).toBe(302);
  });

  it("moves the code too: after a code change the old one stays the account's", async () => {
    const visitor = browser();
    const [link] = await shortenMany(visitor, 1);
    if (!link) throw new Error('no link');
    await visitor.post('/api/auth/register', credentials());
    const changed = await visitor.client.patch<Link>(`/api/links/${link.id}`, {
      shortCode: `moved-${accounts}`,
    });
    expect(changed.status).toBe(200);
    const again = await visitor.client.post<Link>('/api/links', {
      originalUrl: 'https://example.org/',
      title: null,
      shortCode: codeOf(link),
    });
    expect(again.status).toBe(201);
  });

  it('claims only what the plan allows: a Free account holding 3 takes the 2 oldest, 3 stay', async () => {
    const login = credentials();
    const owner = browser();
    expect((await owner.post('/api/auth/register', login)).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const created = await owner.client.post('/api/links', {
        originalUrl: `https://example.org/${i}`,
        title: null,
      });
      expect(created.status).toBe(201);
    }
    const visitor = browser();
    const made = await shortenMany(visitor, 5);
    expect((await visitor.post('/api/auth/login', login)).status).toBe(200);
    const links = (await visitor.client.get<Link[]>('/api/links')).body;
    expect(links).toHaveLength(5);
    const claimed = made.slice(0, 2).map((link) => link.id);
    expect(links.filter((link) => claimed.includes(link.id))).toHaveLength(2);
    const left = (await visitorOnly(visitor.client).list()).body;
    expect(left.map((link) => link.id)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((link) => link.id),
    );
    // What stayed behind is still the visitor's demo: it redirects, and expires as before.
    expect((await follow(made[4] as DemoLink)).status).toBe(302);
    await age(made);
    expect((await follow(made[4] as DemoLink)).status).toBe(410);
    expect((await follow(made[0] as DemoLink)).status).toBe(302);
  });

  it('keeps every slot when two sign-ins from one browser claim at once', async () => {
    const login = credentials();
    expect((await browser().post('/api/auth/register', login)).status).toBe(201);
    const visitor = browser();
    const made = await shortenMany(visitor, 3);
    const twice = await Promise.all([
      visitor.post('/api/auth/login', login),
      visitor.post('/api/auth/login', login),
    ]);
    expect(twice.map((response) => response.status)).toEqual([200, 200]);
    expect((await visitor.client.get<Link[]>('/api/links')).body).toHaveLength(made.length);
    const user = await visitor.client.get<{ linksCreatedThisMonth: number }>('/api/auth/user');
    expect(user.body.linksCreatedThisMonth).toBe(3);
  });

  it('leaves a visitor without demo links, or a sign-in without the cookie, as it was', async () => {
    const login = credentials();
    const someone = browser();
    expect((await someone.post('/api/auth/register', login)).status).toBe(201);
    expect((await someone.client.get<Link[]>('/api/links')).body).toEqual([]);
    const visitor = browser();
    await shortenMany(visitor, 1);
    const elsewhere = browser();
    expect((await elsewhere.post('/api/auth/login', login)).status).toBe(200);
    expect((await elsewhere.client.get<Link[]>('/api/links')).body).toEqual([]);
    expect((await visitor.list()).body).toHaveLength(1);
  });
});

describe('the demo for a signed-in user (onboarding)', () => {
  it('creates real links counted against the plan: Free gets 403 SUBSCRIPTION_REQUIRED at 6', async () => {
    const user = browser();
    expect((await user.post('/api/auth/register', credentials())).status).toBe(201);
    const made = await shortenMany(user, 5);
    expect(user.client.cookies.has('visitor')).toBe(false);
    const links = (await user.client.get<Link[]>('/api/links')).body;
    expect(links.map((link) => link.id).sort()).toEqual(made.map((link) => link.id).sort());
    expect((await user.list()).body.map((link) => link.id)).toEqual(made.reverse().map((link) => link.id));
    const sixth = await user.shorten('https://example.com/sixth');
    expect(sixth.status).toBe(403);
    expect((sixth.body as unknown as ErrorBody).code).toBe('SUBSCRIPTION_REQUIRED');
    await age(made);
    expect((await follow(made[0] as DemoLink)).status).toBe(302);
  });
});
