import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ApiKey, AuditPage, CreatedApiKey, ErrorBody, Link } from '@sniplink/contracts';
import { apiKeyStream, linkStream } from '@sniplink/contracts';
import { createLogger, loadConfig, runAs } from '@sniplink/platform';
import { type HttpClient, type SignedUp, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../../standalone/src/composition';

const t = testApiWithAdmin('keys.admin@example.com');
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

let owner: SignedUp;
beforeAll(async () => {
  owner = await signedUpClient(t.api, 'keys.owner');
});

async function createKey(
  client: HttpClient,
  scopes: string[],
  extra: Record<string, unknown> = {},
): Promise<CreatedApiKey> {
  const created = await client.post<CreatedApiKey>('/api/api-keys', { name: 'CMS', scopes, ...extra });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/** What `curl -H "Authorization: Bearer $KEY" -d '{"originalUrl":…}' …/api/links` sends: no cookie. */
function curl(
  method: string,
  url: string,
  secret: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${t.api.baseUrl}${url}`, {
    method,
    headers: {
      ...bearer(secret),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('an API key', () => {
  it('is shown once, at creation, and stored only as a hash', async () => {
    const key = await createKey(owner.client, ['links:read']);
    expect(key.secret).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    expect(key.hint).toBe(`sk_live_${key.secret.slice(8, 12)}…${key.secret.slice(-4)}`);
    const listed = await owner.client.get<ApiKey[]>('/api/api-keys');
    expect(listed.body.find((listedKey) => listedKey.id === key.id)).toEqual({
      id: key.id,
      name: 'CMS',
      scopes: ['links:read'],
      hint: key.hint,
      createdAt: key.createdAt,
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(listed.text).not.toContain(key.secret);
    const db = t.api.database.db;
    const rows = await sql<{ row: string }>`SELECT row_to_json(k)::text AS row FROM api_keys k`.execute(db);
    const events = await sql<{ data: string }>`SELECT data::text AS data FROM es_events`.execute(db);
    const stored = [...rows.rows.map((r) => r.row), ...events.rows.map((e) => e.data)].join('\n');
    expect(stored).not.toContain(key.secret);
    expect(stored).not.toContain(key.secret.slice(8));
  });

  it('creates a link with links:write and is refused 403 INSUFFICIENT_SCOPE with links:read alone', async () => {
    const writer = await createKey(owner.client, ['links:write']);
    const reader = await createKey(owner.client, ['links:read']);
    const made = await curl('POST', '/api/links', writer.secret, { originalUrl: 'https://example.com' });
    expect(made.status).toBe(201);
    const link = (await made.json()) as Link;
    expect(link.originalUrl).toBe('https://example.com/');
    const refused = await curl('POST', '/api/links', reader.secret, { originalUrl: 'https://example.com' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      message: 'This API key lacks the links:write scope',
    });
    const listed = await curl('GET', '/api/links', reader.secret);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as Link[]).map((l) => l.id)).toContain(link.id);
  });

  it("records the key's owner as the actor of what it changes, through the api channel", async () => {
    const writer = await createKey(owner.client, ['links:write']);
    const made = await curl('POST', '/api/links', writer.secret, { originalUrl: 'https://example.org/x' });
    const link = (await made.json()) as Link;
    const [created] = await t.api.runtime.eventStore.readStream(linkStream.id(link.id), { maxCount: 1 });
    expect(created).toMatchObject({ actorId: owner.userId, metadata: { channel: 'api' } });
    const keyEvents = await t.api.runtime.eventStore.readStream(apiKeyStream.id(owner.userId));
    expect(keyEvents[0]).toMatchObject({ type: 'ApiKeyCreated', actorId: owner.userId });
    expect(keyEvents[0]?.metadata.channel).toBeUndefined();
  });

  it('ignores the cookie when a bearer header is present', async () => {
    // A signed-in browser's cookie and a key that is no key: the cookie does not rescue the call.
    const withCookie = await owner.client.get('/api/links', bearer('sk_live_not-a-key'));
    expect(withCookie.status).toBe(401);
    // A route that takes no key refuses a bearer call, whatever cookie comes with it.
    const key = await createKey(owner.client, ['links:read', 'links:write', 'analytics:read']);
    expect((await owner.client.get('/api/auth/user', bearer(key.secret))).status).toBe(401);
    expect((await owner.client.get('/api/api-keys', bearer(key.secret))).status).toBe(401);
    expect((await owner.client.get('/api/auth/user')).status).toBe(200);
  });

  it('is not held to the origin check, which stays for cookies', async () => {
    const key = await createKey(owner.client, ['links:write']);
    const foreign = { origin: 'https://evil.example' };
    const body = { originalUrl: 'https://example.com/origin' };
    expect((await curl('POST', '/api/links', key.secret, body, foreign)).status).toBe(201);
    const byCookie = await owner.client.post<ErrorBody>('/api/links', body, foreign);
    expect(byCookie).toMatchObject({ status: 403, body: { code: 'FORBIDDEN_ORIGIN' } });
  });

  it('refuses an expiry that is not in the future, and stops working once expired', async () => {
    const past = await owner.client.post<ErrorBody>('/api/api-keys', {
      name: 'old',
      scopes: ['links:read'],
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past).toMatchObject({ status: 400, body: { field: 'expiresAt' } });
    const none = await owner.client.post<ErrorBody>('/api/api-keys', { name: 'x', scopes: [] });
    expect(none).toMatchObject({ status: 400, body: { field: 'scopes' } });
    const blank = await owner.client.post<ErrorBody>('/api/api-keys', { name: ' ', scopes: ['links:read'] });
    expect(blank).toMatchObject({ status: 400, body: { field: 'name' } });
    const soon = await createKey(owner.client, ['links:read'], {
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await curl('GET', '/api/links', soon.secret)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await curl('GET', '/api/links', soon.secret)).status).toBe(401);
  });

  it('notes its last use at most once a minute', async () => {
    const key = await createKey(owner.client, ['analytics:read']);
    expect((await curl('GET', '/api/analytics/user', key.secret)).status).toBe(200);
    const lastUsed = async () =>
      (await owner.client.get<ApiKey[]>('/api/api-keys')).body.find((k) => k.id === key.id)?.lastUsedAt;
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect((await curl('GET', '/api/analytics/user', key.secret)).status).toBe(200);
    expect(await lastUsed()).toBe(first);
  });
});

describe('revoking a key', () => {
  let other: { baseUrl: string; close(): Promise<void> };
  beforeAll(async () => {
    // A second process on the same database, as another API replica is (its projections stand by).
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-keys-'));
    const config = loadConfig({
      DATABASE_URL: t.api.database.connectionString,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      PROJECTIONS: 'off',
    });
    const { app, runtime } = await startApp(config, createLogger('silent'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    other = {
      baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      close: async () => {
        await app.close();
        await runtime.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
  afterAll(() => other.close());

  it('refuses it on another process within a second', async () => {
    const key = await createKey(owner.client, ['links:read']);
    const onOther = () => fetch(`${other.baseUrl}/api/links`, { headers: bearer(key.secret) });
    expect((await onOther()).status).toBe(200);
    const revoked = await owner.client.request('DELETE', `/api/api-keys/${key.id}`);
    expect(revoked).toMatchObject({ status: 200, body: { ok: true, id: key.id } });
    const since = Date.now();
    expect((await onOther()).status).toBe(401);
    expect(Date.now() - since).toBeLessThan(1000);
    expect((await curl('GET', '/api/links', key.secret)).status).toBe(401);
    const listed = await owner.client.get<ApiKey[]>('/api/api-keys');
    expect(listed.body.map((k) => k.id)).not.toContain(key.id);
    expect((await owner.client.request('DELETE', `/api/api-keys/${key.id}`)).status).toBe(404);
  });

  it("is another user's business only as a 404", async () => {
    const key = await createKey(owner.client, ['links:read']);
    const stranger = await signedUpClient(t.api, 'keys.stranger');
    expect((await stranger.client.request('DELETE', `/api/api-keys/${key.id}`)).status).toBe(404);
    expect((await stranger.client.request('DELETE', '/api/api-keys/not-a-uuid')).status).toBe(404);
    expect((await curl('GET', '/api/links', key.secret)).status).toBe(200);
  });

  it('lets an admin see a user’s keys (never the secret) and revoke one, audited', async () => {
    const user = await signedUpClient(t.api, 'keys.watched');
    const key = await createKey(user.client, ['links:read', 'analytics:read']);
    const seen = await t.admin.get<ApiKey[]>(`/api/admin/users/${user.userId}/api-keys`);
    expect(seen.body).toEqual([expect.objectContaining({ id: key.id, name: 'CMS', hint: key.hint })]);
    expect(seen.text).not.toContain(key.secret);
    expect((await t.admin.get('/api/admin/users/not-a-uuid/api-keys')).body).toEqual([]);
    const malformed = await t.admin.request('DELETE', `/api/admin/users/not-a-uuid/api-keys/${key.id}`);
    expect(malformed.status).toBe(404);
    const revoked = await t.admin.request('DELETE', `/api/admin/users/${user.userId}/api-keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect((await curl('GET', '/api/links', key.secret)).status).toBe(401);
    const audit = await t.admin.get<AuditPage>('/api/admin/audit');
    expect(audit.body.entries[0]).toMatchObject({
      action: 'ApiKeyRevoked',
      actor: { id: t.adminId },
    });
  });

  it('stops working while its account is suspended, and works again once unsuspended', async () => {
    const user = await signedUpClient(t.api, 'keys.suspended');
    const key = await createKey(user.client, ['links:read']);
    const suspend = (suspended: boolean) =>
      t.admin.patch(`/api/admin/users/${user.userId}/suspend`, { suspended });
    expect((await suspend(true)).status).toBe(200);
    expect((await curl('GET', '/api/links', key.secret)).status).toBe(401);
    expect((await suspend(false)).status).toBe(200);
    expect((await curl('GET', '/api/links', key.secret)).status).toBe(200);
  });

  it('revokes every key of an erased account', async () => {
    const user = await signedUpClient(t.api, 'keys.erased');
    const key = await createKey(user.client, ['links:read']);
    await runAs('operator', () => t.api.runtime.accounts.erase(user.userId));
    expect((await curl('GET', '/api/links', key.secret)).status).toBe(401);
    const events = await t.api.runtime.eventStore.readStream(apiKeyStream.id(user.userId));
    expect(events.at(-1)).toMatchObject({ type: 'ApiKeyRevoked', data: { keyId: key.id, by: 'erasure' } });
    const rows = await t.api.database.db.selectFrom('api_keys').where('user_id', '=', user.userId).execute();
    expect(rows).toEqual([]);
  });
});

describe('per-key rate limits', () => {
  it('tells the limit on every bearer answer and refuses past it with 429 and Retry-After', async () => {
    const set = await t.admin.post('/api/admin/config', { key: 'api_keys.requests_per_minute', value: '3' });
    expect(set.status).toBe(201);
    try {
      const user = await signedUpClient(t.api, 'keys.limited');
      const key = await createKey(user.client, ['links:read']);
      for (const remaining of [2, 1, 0]) {
        const answer = await curl('GET', '/api/links', key.secret);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ratelimit-limit')).toBe('3');
        expect(answer.headers.get('ratelimit-remaining')).toBe(String(remaining));
        expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      }
      const refused = await curl('GET', '/api/links', key.secret);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      // The browser's own calls are the session's, not the key's.
      expect((await user.client.get('/api/links')).headers.get('ratelimit-limit')).toBeNull();
      expect((await user.client.get('/api/links')).status).toBe(200);
    } finally {
      await t.admin.request('DELETE', '/api/admin/config/api_keys.requests_per_minute');
    }
  });
});
