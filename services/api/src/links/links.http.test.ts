import type { Availability, ErrorBody, Link, LinkAnalytics } from '@sniplink/contracts';
import {
  countedClicks,
  type HttpClient,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneIdempotencyKeys } from './idempotency';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ PUBLIC_URL: 'https://snip.example.com' });
});
afterAll(() => api.close());

let counter = 0;
async function signedIn(plan?: 'monthly', on: TestApi = api) {
  const signedUp = await signedUpClient(on, 'links');
  if (plan) await on.runtime.accounts.setPlan(signedUp.userId, plan);
  return signedUp;
}
const create = (client: HttpClient, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  client.post<Link>('/api/links', { title: null, ...body }, headers);

describe('who made a link', () => {
  it('is recorded on its events: the signed-in user, one correlation id for all the request appended', async () => {
    const { client, userId } = await signedIn();
    const link = (await create(client, { originalUrl: 'https://example.com/audit' })).body;
    const store = api.runtime.eventStore;
    const [created] = await store.readStream(`link-${link.id}`);
    const [claimed] = await store.readStream(`shortcode-${link.shortCode.toLowerCase()}`);
    const slot = (await store.readStream(`user-${userId}`)).find((event) => event.type === 'LinkSlotTaken');
    expect(created).toMatchObject({ type: 'LinkCreated', actorId: userId, schemaVersion: 1 });
    expect([claimed?.actorId, slot?.actorId]).toEqual([userId, userId]);
    expect(created?.correlationId).toEqual(expect.any(String));
    expect([claimed?.correlationId, slot?.correlationId]).toEqual([
      created?.correlationId,
      created?.correlationId,
    ]);
    // Three commands: each event names its own as the cause.
    expect(new Set([created, claimed, slot].map((event) => event?.causationId)).size).toBe(3);
    // The next request is another correlation.
    const other = (await create(client, { originalUrl: 'https://example.com/audit-2' })).body;
    const [next] = await store.readStream(`link-${other.id}`);
    expect(next?.correlationId).not.toBe(created?.correlationId);
  });
});

describe('creating links', () => {
  it('answers 201 with the link: a 7-character code and a short URL under PUBLIC_URL', async () => {
    const { client } = await signedIn();
    const response = await create(client, {
      originalUrl: 'https://example.com/a/long/path?x=1',
      title: '  Spring sale ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Spring sale',
      originalUrl: 'https://example.com/a/long/path?x=1',
      shortCode: expect.stringMatching(/^[a-z0-9]{7}$/),
      shortUrl: `https://snip.example.com/s/${response.body.shortCode}`,
      clickCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-/),
      hasPassword: false,
      expiresAt: null,
      maxClicks: null,
      clicksUsed: null,
      fallbackUrl: null,
      paused: false,
      tags: [],
      rules: [],
      status: 'active',
      pendingApproval: false,
    });
  });

  it('gives https:// to a target typed without a scheme, trimmed, on create and on edit', async () => {
    const { client } = await signedIn();
    const made = await create(client, { originalUrl: '  example.com/x  ' });
    expect(made.status).toBe(201);
    expect(made.body.originalUrl).toBe('https://example.com/x');
    const edited = await client.patch<Link>(`/api/links/${made.body.id}`, {
      originalUrl: 'www.example.org/y',
    });
    expect(edited.body.originalUrl).toBe('https://www.example.org/y');
    // A short link of this site stays refused, however it is typed.
    const own = await client.post<ErrorBody>('/api/links', { originalUrl: 'snip.example.com/s/abcdefg' });
    expect(own.body).toMatchObject({ code: 'INVALID_URL', field: 'originalUrl' });
  });

  it('takes a custom code, unique ignoring case: taken is 409 with "already taken"', async () => {
    const { client } = await signedIn();
    const code = `Shop-${++counter}${Date.now() % 100000}`;
    expect(
      (await create(client, { originalUrl: 'https://example.com/', shortCode: code })).body.shortCode,
    ).toBe(code);
    const { client: other } = await signedIn();
    const taken = await create(other, { originalUrl: 'https://example.org/', shortCode: code.toLowerCase() });
    expect(taken.status).toBe(409);
    expect((taken.body as unknown as ErrorBody).message).toContain('already taken');
  });

  it.each([
    ['http://localhost:3000/', 'INVALID_URL'],
    ['ftp://example.com/', 'INVALID_URL'],
    ['https://snip.example.com/s/abcdefg', 'INVALID_URL'],
    ['https://snip.example.com./s/abcdefg', 'INVALID_URL'],
    ['https://SNIP.example.com/%73/abcdefg', 'INVALID_URL'],
    ['https://snip.example.com:443//s/abcdefg', 'INVALID_URL'],
  ])('refuses the target %s with 400 %s', async (originalUrl, code) => {
    const { client } = await signedIn();
    const response = await client.post<ErrorBody>('/api/links', { originalUrl, title: null });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code, field: 'originalUrl' });
  });

  it('refuses a malformed custom code with 400 INVALID_SHORT_CODE, and a long title with 400', async () => {
    const { client } = await signedIn();
    const bad = await client.post<ErrorBody>('/api/links', {
      originalUrl: 'https://example.com/',
      shortCode: 'no spaces',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_SHORT_CODE', field: 'shortCode' });
    const long = await client.post<ErrorBody>('/api/links', {
      originalUrl: 'https://example.com/',
      title: 'x'.repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe('title');
  });

  it('makes a double submit with one Idempotency-Key one link', async () => {
    const { client } = await signedIn();
    const headers = { 'idempotency-key': `key-${Date.now()}` };
    const [first, second] = await Promise.all([
      create(client, { originalUrl: 'https://example.com/once' }, headers),
      create(client, { originalUrl: 'https://example.com/once' }, headers),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).toBe(first.body.id);
    expect((await client.get<Link[]>('/api/links')).body).toHaveLength(1);
  });

  it('forgets Idempotency-Keys after a day', async () => {
    const { client, userId } = await signedIn();
    await create(client, { originalUrl: 'https://example.com/kept' }, { 'idempotency-key': 'old-key' });
    const db = api.runtime.database.db;
    await db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) } as never)
      .where('owner_id', '=', userId)
      .execute();
    expect(await pruneIdempotencyKeys(db)).toBeGreaterThanOrEqual(1);
    const again = await create(
      client,
      { originalUrl: 'https://example.com/kept' },
      { 'idempotency-key': 'old-key' },
    );
    expect((await client.get<Link[]>('/api/links')).body).toHaveLength(2);
    expect(again.status).toBe(201);
  });

  it('answers 401 when signed out', async () => {
    expect((await api.client().post('/api/links', { originalUrl: 'https://example.com/' })).status).toBe(401);
    expect((await api.client().get('/api/links')).status).toBe(401);
  });
});

describe('the Free and Pro allowances', () => {
  it('gives 20 simultaneous creates by a new Free user exactly 5 × 201 and 15 × 403', async () => {
    const { client } = await signedIn();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(client, { originalUrl: `https://example.com/${i}` })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(15).fill(403)]);
    for (const r of responses.filter((x) => x.status === 403)) {
      expect((r.body as unknown as ErrorBody).code).toBe('SUBSCRIPTION_REQUIRED');
    }
    expect((await client.get<Link[]>('/api/links')).body).toHaveLength(5);
  });

  it('frees a Free slot on delete; a duplicate at the limit is 403 SUBSCRIPTION_REQUIRED', async () => {
    const { client } = await signedIn();
    const made: Link[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await create(client, { originalUrl: `https://example.com/${i}` })).body);
    const duplicate = await client.post<ErrorBody>(`/api/links/${made[0]?.id}/duplicate`);
    expect(duplicate.status).toBe(403);
    expect(duplicate.body.code).toBe('SUBSCRIPTION_REQUIRED');
    expect((await client.request('DELETE', `/api/links/${made[0]?.id}`)).status).toBe(200);
    expect((await create(client, { originalUrl: 'https://example.com/again' })).status).toBe(201);
  });

  it('counts a Pro month: 500 creates, then 403 MONTHLY_LIMIT_REACHED; linksCreatedThisMonth shows it', async () => {
    const { client, userId } = await signedIn('monthly');
    const month = new Date().toISOString().slice(0, 7);
    const stream = `user-${userId}`;
    const [last] = await api.runtime.eventStore.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const slots = Array.from({ length: 499 }, () => ({
      id: crypto.randomUUID(),
      type: 'LinkSlotTaken',
      data: { linkId: crypto.randomUUID(), month },
      occurredAt: new Date(),
    }));
    await api.runtime.eventStore.appendToStream(stream, slots, last?.revision ?? 'no_stream');
    expect((await create(client, { originalUrl: 'https://example.com/500th' })).status).toBe(201);
    const over = await client.post<ErrorBody>('/api/links', {
      originalUrl: 'https://example.com/501st',
      title: null,
    });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('MONTHLY_LIMIT_REACHED');
    expect(
      (await client.get<{ linksCreatedThisMonth: number }>('/api/auth/user')).body.linksCreatedThisMonth,
    ).toBe(500);
  });
});

describe('changing, duplicating and deleting links', () => {
  it('changes only the fields sent; a blank title clears it', async () => {
    const { client } = await signedIn();
    const link = (await create(client, { originalUrl: 'https://example.com/a', title: 'First' })).body;
    const retargeted = await client.patch<Link>(`/api/links/${link.id}`, {
      originalUrl: 'https://example.com/b',
    });
    expect(retargeted.body).toMatchObject({
      title: 'First',
      originalUrl: 'https://example.com/b',
      shortCode: link.shortCode,
    });
    expect((await client.patch<Link>(`/api/links/${link.id}`, { title: '   ' })).body.title).toBeNull();
    await client.patch(`/api/links/${link.id}`, { title: 'Second' });
    expect((await client.patch<Link>(`/api/links/${link.id}`, { title: '\u200B' })).body.title).toBeNull();
  });

  it("changes the code: the new one redirects at once, the old one is gone but stays the owner's", async () => {
    const { client } = await signedIn();
    const link = (await create(client, { originalUrl: 'https://example.com/moved' })).body;
    expect((await api.client().get(`/s/${link.shortCode}`)).status).toBe(302);
    const code = `new-${Date.now()}`;
    const changed = await client.patch<Link>(`/api/links/${link.id}`, { shortCode: code });
    expect(changed.body.shortCode).toBe(code);
    expect((await api.client().get(`/s/${code}`)).headers.get('location')).toBe('https://example.com/moved');
    expect((await api.client().get(`/s/${link.shortCode}`)).status).toBe(404);
    const { client: other } = await signedIn();
    expect(
      (await create(other, { originalUrl: 'https://example.org/', shortCode: link.shortCode })).status,
    ).toBe(409);
    expect(
      (await create(client, { originalUrl: 'https://example.org/', shortCode: link.shortCode })).status,
    ).toBe(201);
  });

  it('refuses a taken code on edit with 409 "already taken", changing nothing', async () => {
    const { client } = await signedIn();
    const a = (await create(client, { originalUrl: 'https://example.com/a', shortCode: `aa-${Date.now()}` }))
      .body;
    const b = (await create(client, { originalUrl: 'https://example.com/b' })).body;
    const response = await client.patch<ErrorBody>(`/api/links/${b.id}`, {
      shortCode: a.shortCode,
      title: 'new',
    });
    expect(response.status).toBe(409);
    expect(response.body.message).toContain('already taken');
    expect((await client.get<Link[]>('/api/links')).body.find((l) => l.id === b.id)?.title).toBeNull();
  });

  it('duplicates a link with a new code (201) and deletes with a JSON answer', async () => {
    const { client } = await signedIn();
    const link = (await create(client, { originalUrl: 'https://example.com/dup', title: 'Dup' })).body;
    const copy = await client.post<Link>(`/api/links/${link.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ originalUrl: link.originalUrl, title: 'Dup' });
    expect(copy.body.shortCode).not.toBe(link.shortCode);
    const deleted = await client.request<{ ok: boolean }>('DELETE', `/api/links/${link.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.ok).toBe(true);
    expect((await api.client().get(`/s/${link.shortCode}`)).status).toBe(404);
  });

  it("answers 404 for another user's link and for a malformed id, on every route", async () => {
    const { client: owner } = await signedIn();
    const link = (await create(owner, { originalUrl: 'https://example.com/mine' })).body;
    const { client: other } = await signedIn();
    for (const id of [link.id, 'not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      expect((await other.patch(`/api/links/${id}`, { title: 'x' })).status).toBe(404);
      expect((await other.request('DELETE', `/api/links/${id}`)).status).toBe(404);
      expect((await other.post(`/api/links/${id}/duplicate`)).status).toBe(404);
      expect((await other.get(`/api/analytics/link/${id}`)).status).toBe(404);
    }
    expect((await owner.get<Link[]>('/api/links')).body[0]?.title).toBeNull();
  });
});

describe('listing and availability', () => {
  it('lists newest first, with search, limit and offset', async () => {
    const { client } = await signedIn();
    for (const title of ['Alpha', 'Beta', 'Gamma'])
      await create(client, { originalUrl: 'https://example.com/', title });
    expect((await client.get<Link[]>('/api/links')).body.map((l) => l.title)).toEqual([
      'Gamma',
      'Beta',
      'Alpha',
    ]);
    expect((await client.get<Link[]>('/api/links?search=bet')).body.map((l) => l.title)).toEqual(['Beta']);
    expect((await client.get<Link[]>('/api/links?search=%25')).body).toEqual([]);
    expect((await client.get<Link[]>('/api/links?limit=1&offset=1')).body.map((l) => l.title)).toEqual([
      'Beta',
    ]);
  });

  it('says whether a code is available, and why not', async () => {
    const { client } = await signedIn();
    const code = `av-${Date.now()}`;
    expect((await client.get<Availability>(`/api/links/check-availability/${code}`)).body).toEqual({
      available: true,
      message: 'This short code is available',
    });
    await create(client, { originalUrl: 'https://example.com/', shortCode: code });
    expect(
      (await client.get<Availability>(`/api/links/check-availability/${code.toUpperCase()}`)).body.available,
    ).toBe(false);
    expect((await client.get<Availability>('/api/links/check-availability/a b')).body).toEqual({
      available: false,
      message: '3-20 characters: letters, numbers, hyphens, and underscores only',
    });
    expect((await api.client().get('/api/links/check-availability/abc')).status).toBe(401);
  });
});

/**
 * The redirect's behaviour, the same on both settings of REDIRECT_FAST_PATH: on (the file's app), cached
 * links are answered before Fastify; off (an app of its own), the Fastify route answers every one.
 */
describe.each(['on', 'off'] as const)('the redirect, REDIRECT_FAST_PATH=%s', (fastPath) => {
  let server: TestApi;
  beforeAll(async () => {
    server =
      fastPath === 'on'
        ? api
        : await startTestApi({ PUBLIC_URL: 'https://snip.example.com', REDIRECT_FAST_PATH: 'off' });
  });
  afterAll(async () => {
    if (server !== api) await server.close();
  });

  it("answers 302 to the target, private and uncached, ignoring the code's case; unknown codes 404", async () => {
    const { client } = await signedIn(undefined, server);
    const link = (await create(client, { originalUrl: 'https://example.com/target' })).body;
    const response = await server.client().get(`/s/${link.shortCode.toUpperCase()}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/target');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect((await server.client().get('/s/zzzzzzzzzz')).status).toBe(404);
  });

  it('answers a cached code (before the framework) exactly as it answered the first visit, counting each', async () => {
    const { client } = await signedIn(undefined, server);
    const link = (await create(client, { originalUrl: 'https://example.com/twice' })).body;
    const chrome = {
      'user-agent':
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      // Without TRUST_PROXY the header is the client's own claim: ignored on both paths.
      'x-forwarded-for': '8.8.8.8',
    };
    const visit = () =>
      fetch(`${server.baseUrl}/s/${link.shortCode}`, { redirect: 'manual', headers: chrome });
    const first = await visit(); // not cached yet: the Fastify route loads it
    const second = await visit(); // cached: a fast path when on, the route again when off
    for (const response of [first, second]) {
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('https://example.com/twice');
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(response.headers.get('content-length')).toBe('0');
    }
    const counted = await until(
      async () => (await client.get<LinkAnalytics>(`/api/analytics/link/${link.id}`)).body,
      (analytics) => (analytics.countryBreakdown.Unknown ?? 0) >= 2,
    );
    expect(counted.countryBreakdown).toEqual({ Unknown: 2 });
  });

  it('leaves what the fast path does not take to the route: percent-encoding, a query, HEAD, other methods', async () => {
    const { client } = await signedIn(undefined, server);
    const link = (await create(client, { originalUrl: 'https://example.com/encoded' })).body;
    expect((await server.client().get(`/s/${link.shortCode}`)).status).toBe(302);
    const encoded = [...link.shortCode].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect((await server.client().get(`/s/${encoded}`)).headers.get('location')).toBe(
      'https://example.com/encoded',
    );
    expect((await server.client().get(`/s/${link.shortCode}?utm_source=x`)).status).toBe(302);
    expect((await server.client().request('HEAD', `/s/${link.shortCode}`)).status).toBe(302);
    expect((await server.client().post(`/s/${link.shortCode}`)).status).toBe(404);
    expect((await server.client().get(`/s/${link.shortCode}/extra`)).status).toBe(404);
    expect((await server.client().get('/s/%E0%A4%A')).status).toBe(400);
  });

  it('redirects HEAD and prefetches without counting them, on the route and on the fast paths', async () => {
    const { client } = await signedIn(undefined, server);
    const link = (await create(client, { originalUrl: 'https://example.com/ahead' })).body;
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const visit = async (path: string, init: { method?: string; headers?: Record<string, string> } = {}) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        redirect: 'manual',
        method: init.method,
        headers: { 'user-agent': chrome, ...init.headers },
      });
      expect(response.status, `${init.method ?? 'GET'} ${JSON.stringify(init.headers ?? {})}`).toBe(302);
      expect(response.headers.get('location')).toBe('https://example.com/ahead');
    };
    const plain = `/s/${link.shortCode}`;
    // Percent-encoded, the code always goes to the route, cached or not.
    const encoded = `/s/%${link.shortCode.charCodeAt(0).toString(16)}${link.shortCode.slice(1)}`;
    const ahead: Record<string, string>[] = [
      { 'sec-purpose': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
      { purpose: 'prefetch' },
      { 'x-purpose': 'preview' },
      { 'x-moz': 'prefetch' },
    ];
    await visit(plain, { method: 'HEAD' }); // not cached yet: the route
    await visit(plain, { headers: { 'sec-purpose': 'prefetch' } });
    await visit(plain); // cached now: off the connection when on, counted
    for (const headers of ahead) {
      await visit(plain, { headers }); // cached: the fast paths hand it to the route
      await visit(encoded, { headers });
    }
    await visit(plain, { method: 'HEAD' });
    await visit(encoded, { method: 'HEAD' });
    await visit(encoded); // the route, counted
    // Everything answered is published, then everything published is counted: the count is final.
    expect((await countedClicks(server, link.id)).botClicks).toBe(0);
    const analytics = (await client.get<LinkAnalytics>(`/api/analytics/link/${link.id}`)).body;
    expect(analytics.deviceBreakdown).toEqual({ desktop: 2 });
  });

  it('follows a change of target at once (read-your-writes)', async () => {
    const { client } = await signedIn(undefined, server);
    const link = (await create(client, { originalUrl: 'https://example.com/old' })).body;
    expect((await server.client().get(`/s/${link.shortCode}`)).headers.get('location')).toBe(
      'https://example.com/old',
    );
    await client.patch(`/api/links/${link.id}`, { originalUrl: 'https://example.com/new' });
    expect((await server.client().get(`/s/${link.shortCode}`)).headers.get('location')).toBe(
      'https://example.com/new',
    );
  });
});
