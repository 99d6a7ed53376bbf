import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DemoLink, ErrorBody, Link, User } from '@sniplink/contracts';
import { type HttpClient, type HttpResponse, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * Bad input never gives a 500: every state-changing JSON route, sent malformed JSON, a body that
 * is not an object, each field with the wrong type, a body over 64 KB, a body that is not JSON and a
 * foreign Origin. Each answers with its 4xx, and the refused requests change nothing.
 */
let api: TestApi;
let dataDir: string;
beforeAll(async () => {
  // The accepted password reset writes a mail to DATA_DIR/outbox: a directory of this file's own.
  dataDir = await mkdtemp(path.join(tmpdir(), 'sniplink-bad-input-'));
  // Many demo calls from one address: the demo's own limits are tested elsewhere.
  api = await startTestApi({
    DATA_DIR: dataDir,
    DEMO_MAX_REQUESTS_PER_MINUTE: '100000',
    DEMO_MAX_PER_VISITOR: '10000',
    DEMO_MAX_PER_IP: '100000',
  });
});
afterAll(async () => {
  await api?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Every 5xx any request of this file got: there must be none. */
const serverErrors: string[] = [];
afterEach(() => {
  // Emptied as it is checked: one test's 5xx fails that test, not every test after it.
  expect(serverErrors.splice(0)).toEqual([]);
});

async function send<T = ErrorBody>(
  client: HttpClient,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<HttpResponse<T>> {
  const response = await client.request<T>(method, path, body, headers);
  if (response.status >= 500) serverErrors.push(`${method} ${path}: ${response.status} ${response.text}`);
  return response;
}

const PASSWORD = 'correct horse';
const FOREIGN_ORIGIN = 'https://evil.example';

interface Account {
  client: HttpClient;
  userId: string;
  email: string;
  link: Link;
  /** A live password-reset token of the account, stored as the app stores them (its SHA-256). */
  resetToken: string;
}

let counter = 0;
/** A signed-in Pro user (the allowance never answers first) with one link and one reset token. */
async function newAccount(): Promise<Account> {
  const client = api.client();
  const email = `bad-input.${Date.now()}.${++counter}@example.com`;
  const registered = await client.post<User>('/api/auth/register', { email, password: PASSWORD });
  expect(registered.status).toBe(201);
  const userId = registered.body.id;
  await api.runtime.accounts.setPlan(userId, 'monthly');
  const link = await client.post<Link>('/api/links', {
    originalUrl: 'https://example.com/first',
    title: 'First',
  });
  expect(link.status).toBe(201);
  const resetToken = randomBytes(32).toString('base64url');
  await api.database.db
    .insertInto('password_reset_tokens')
    .values({ token_hash: sha256(resetToken), user_id: userId, expires_at: new Date(Date.now() + 3_600_000) })
    .execute();
  return { client, userId, email, link: link.body, resetToken };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function linksOf(account: Account): Promise<Link[]> {
  const response = await send<Link[]>(account.client, 'GET', '/api/links');
  expect(response.status).toBe(200);
  return response.body;
}

interface JsonRoute {
  name: string;
  method: 'POST' | 'PATCH';
  path(account: Account): string;
  /** A body the route takes: sent the right way it changes what `observe` reads; refused, nothing. */
  validBody(account: Account): Record<string, unknown>;
  /** The body's fields, each a string (or null) in the contract. */
  fields: string[];
  observe(account: Account): Promise<unknown>;
}

const JSON_ROUTES: JsonRoute[] = [
  {
    name: 'POST /api/auth/register',
    method: 'POST',
    path: () => '/api/auth/register',
    validBody: (account) => ({ email: `second.${account.email}`, password: PASSWORD, firstName: 'New' }),
    fields: ['email', 'password', 'firstName', 'lastName'],
    observe: (account) => api.runtime.accounts.findUserIdByEmail(`second.${account.email}`),
  },
  {
    name: 'POST /api/auth/login',
    method: 'POST',
    path: () => '/api/auth/login',
    validBody: (account) => ({ email: account.email, password: PASSWORD }),
    fields: ['email', 'password'],
    // A sign-in replaces the session: its hash changes.
    observe: (account) =>
      api.database.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('user_id', '=', account.userId)
        .execute(),
  },
  {
    name: 'PATCH /api/user/profile',
    method: 'PATCH',
    path: () => '/api/user/profile',
    validBody: () => ({ firstName: 'Changed', lastName: 'Changed' }),
    fields: ['firstName', 'lastName'],
    observe: async (account) => {
      const { firstName, lastName } = (await send<User>(account.client, 'GET', '/api/auth/user')).body;
      return { firstName, lastName };
    },
  },
  {
    name: 'POST /api/auth/password-reset',
    method: 'POST',
    path: () => '/api/auth/password-reset',
    validBody: (account) => ({ email: account.email }),
    fields: ['email'],
    observe: async (account) => {
      // The token is issued after the 202: give an accepted request the time to store one.
      await sleep(300);
      return api.database.db
        .selectFrom('password_reset_tokens')
        .select('token_hash')
        .where('user_id', '=', account.userId)
        .execute();
    },
  },
  {
    name: 'POST /api/auth/password-reset/confirm',
    method: 'POST',
    path: () => '/api/auth/password-reset/confirm',
    validBody: (account) => ({ token: account.resetToken, password: 'battery staple' }),
    fields: ['token', 'password'],
    observe: async (account) => ({
      token: await api.database.db
        .selectFrom('password_reset_tokens')
        .select('used_at')
        .where('token_hash', '=', sha256(account.resetToken))
        .executeTakeFirst(),
      credentials: await api.database.db
        .selectFrom('user_credentials')
        .select('password_hash')
        .where('user_id', '=', account.userId)
        .executeTakeFirst(),
    }),
  },
  {
    name: 'POST /api/links',
    method: 'POST',
    path: () => '/api/links',
    validBody: () => ({ originalUrl: 'https://example.com/new', title: 'New' }),
    fields: ['originalUrl', 'title', 'shortCode'],
    observe: linksOf,
  },
  {
    name: 'PATCH /api/links/{id}',
    method: 'PATCH',
    path: (account) => `/api/links/${account.link.id}`,
    validBody: () => ({ title: 'Changed', originalUrl: 'https://example.com/changed' }),
    fields: ['title', 'originalUrl', 'shortCode'],
    observe: linksOf,
  },
  {
    name: 'POST /api/demo/shorten',
    method: 'POST',
    path: () => '/api/demo/shorten',
    validBody: () => ({ url: 'https://example.com/demo' }),
    fields: ['url'],
    observe: async (account) => (await send<DemoLink[]>(account.client, 'GET', '/api/demo/links')).body,
  },
];

/** Values no string field takes; null is left out (some fields are nullable). */
const WRONG_TYPES: Array<[string, string]> = [
  ['a number', '42'],
  ['a boolean', 'true'],
  ['an object', '{"value":"x"}'],
  ['an array', '["x"]'],
  // 30,000 levels: as deep as fits in a body under the 64 KB limit.
  ['a deeply nested array', `${'['.repeat(30_000)}${']'.repeat(30_000)}`],
];

/** Text PostgreSQL cannot store (U+0000 anywhere; a lone surrogate in jsonb), each long enough for any rule. */
const UNSTORABLE_TEXT = ['https://example.com/nul\u0000@example.com', 'lone \ud800 surrogate@example.com'];

/** `{...valid, field: <raw JSON>}` as text: lets a test put any JSON (even 30,000 levels deep) in one field. */
function bodyWith(valid: Record<string, unknown>, field: string, rawValue: string): string {
  const rest = JSON.stringify({ ...valid, [field]: undefined });
  return `{${JSON.stringify(field)}:${rawValue}${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}`;
}

describe.each(JSON_ROUTES)('$name', (route) => {
  let account: Account;
  const call = (body: string | undefined, headers: Record<string, string> = {}) =>
    send(account.client, route.method, route.path(account), body, headers);

  beforeAll(async () => {
    account = await newAccount();
  });

  it.each([
    ['cut short', '{"email":'],
    ['unquoted', '{email: 1}'],
    ['empty', ''],
    ['trailing garbage', '{} x'],
    ['a prototype key', '{"__proto__":{"isAdmin":true}}'],
  ])('answers malformed JSON (%s) with 400 BAD_REQUEST', async (_what, body) => {
    const response = await call(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
  });

  it.each(['[]', '[{}]', '42', '"text"', 'true', 'null'])(
    'answers the JSON body %s (not an object) with 400 VALIDATION_FAILED',
    async (body) => {
      const response = await call(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'The request body must be a JSON object',
      });
    },
  );

  it('answers each field with a wrong type with 400 naming the field', async () => {
    for (const field of route.fields) {
      for (const [what, rawValue] of WRONG_TYPES) {
        const response = await call(bodyWith(route.validBody(account), field, rawValue));
        expect({ field, what, status: response.status, body: response.body }).toEqual({
          field,
          what,
          status: 400,
          body: { code: 'VALIDATION_FAILED', message: `${field} has the wrong type`, field },
        });
      }
    }
  });

  it('answers text the database cannot store with 400 naming the field', async () => {
    for (const field of route.fields) {
      for (const text of UNSTORABLE_TEXT) {
        const response = await call(JSON.stringify({ ...route.validBody(account), [field]: text }));
        expect({
          field,
          status: response.status,
          code: response.body.code,
          named: response.body.field,
        }).toEqual({
          field,
          status: 400,
          code: expect.stringMatching(/^(VALIDATION_FAILED|INVALID_URL)$/),
          named: field,
        });
      }
    }
  });

  it('answers a 65 KB body with 413 PAYLOAD_TOO_LARGE, with or without a Content-Length', async () => {
    const [field = 'x'] = route.fields;
    const big = bodyWith(route.validBody(account), field, JSON.stringify('x'.repeat(65 * 1024)));
    const sized = await call(big);
    expect(sized.status).toBe(413);
    expect(sized.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    const streamed = await sendChunked(account, route.method, route.path(account), big);
    expect(streamed.status).toBe(413);
    expect(streamed.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain with a charset', 'text/plain; charset=utf-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['no type at all', ''],
  ])('refuses a valid body sent as %s with 415, changing nothing', async (_what, type) => {
    const before = await route.observe(account);
    const response = await call(JSON.stringify(route.validBody(account)), { 'content-type': type });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      code: 'BAD_REQUEST',
      message: 'Send the request body as application/json',
    });
    expect(await route.observe(account)).toEqual(before);
  });

  it('refuses a valid body from a foreign Origin with 403 FORBIDDEN_ORIGIN, changing nothing', async () => {
    const before = await route.observe(account);
    const response = await call(JSON.stringify(route.validBody(account)), { origin: FOREIGN_ORIGIN });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'FORBIDDEN_ORIGIN', message: expect.any(String) });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await route.observe(account)).toEqual(before);
  });

  // Last: proves the observations above would have seen a change.
  it('takes the same body sent as JSON from this site, and that does change what the checks read', async () => {
    const before = await route.observe(account);
    const response = await call(JSON.stringify(route.validBody(account)), { origin: api.config.publicUrl });
    expect(response.status).toBeLessThan(300);
    expect(await route.observe(account)).not.toEqual(before);
  });
});

/** The same request with a streamed body: no Content-Length, so the limit is counted as the body arrives. */
async function sendChunked(account: Account, method: string, path: string, body: string) {
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 64 * 1024)
        controller.enqueue(bytes.subarray(at, at + 64 * 1024));
      controller.close();
    },
  });
  const cookie = [...account.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  if (response.status >= 500) serverErrors.push(`${method} ${path} (chunked): ${response.status}`);
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

interface BodilessRoute {
  name: string;
  method: 'POST' | 'DELETE';
  path(account: Account): string;
  observe(account: Account): Promise<unknown>;
}

const sessionAlive = async (account: Account) => (await send(account.client, 'GET', '/api/auth/user')).status;

const BODILESS_ROUTES: BodilessRoute[] = [
  { name: 'POST /api/auth/logout', method: 'POST', path: () => '/api/auth/logout', observe: sessionAlive },
  {
    name: 'POST /api/auth/logout-all',
    method: 'POST',
    path: () => '/api/auth/logout-all',
    observe: sessionAlive,
  },
  {
    name: 'DELETE /api/links/{id}',
    method: 'DELETE',
    path: (account) => `/api/links/${account.link.id}`,
    observe: linksOf,
  },
  {
    name: 'POST /api/links/{id}/duplicate',
    method: 'POST',
    path: (account) => `/api/links/${account.link.id}/duplicate`,
    observe: linksOf,
  },
];

describe.each(BODILESS_ROUTES)('$name (no body)', (route) => {
  let account: Account;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('refuses a foreign Origin with 403 FORBIDDEN_ORIGIN, changing nothing', async () => {
    const before = await route.observe(account);
    const response = await send(account.client, route.method, route.path(account), undefined, {
      origin: FOREIGN_ORIGIN,
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN_ORIGIN');
    expect(await route.observe(account)).toEqual(before);
  });

  it('refuses a text/plain body (a cross-site form can send one) with 415, changing nothing', async () => {
    const before = await route.observe(account);
    const response = await send(account.client, route.method, route.path(account), 'x', {
      'content-type': 'text/plain',
    });
    expect(response.status).toBe(415);
    expect(await route.observe(account)).toEqual(before);
  });

  it('answers malformed JSON with 400 and a body over 64 KB with 413', async () => {
    expect((await send(account.client, route.method, route.path(account), '{"x":')).status).toBe(400);
    const big = JSON.stringify({ x: 'x'.repeat(65 * 1024) });
    expect((await send(account.client, route.method, route.path(account), big)).status).toBe(413);
  });
});

describe('query strings and paths', () => {
  let account: Account;
  beforeAll(async () => {
    account = await newAccount();
  });

  it.each([
    ['a repeated parameter', '?search=a&search=b', 'search has the wrong type'],
    ['U+0000 in a parameter', '?search=a%00b', 'search contains characters that are not allowed'],
  ])('answers %s of GET /api/links with 400 naming it', async (_what, query, message) => {
    const response = await send(account.client, 'GET', `/api/links${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION_FAILED', message, field: 'search' });
  });

  it('ignores a limit or offset that is not a whole number', async () => {
    const response = await send<Link[]>(account.client, 'GET', '/api/links?limit=-1&offset=x');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
  });

  it('answers a path that is not valid percent-encoding with 400, in the API shape and without echoing it', async () => {
    for (const path of ['/api/links/%E0%A4%A', '/s/%E0%A4%A', '/api/analytics/link/%ZZ']) {
      const response = await send(account.client, 'GET', path);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'BAD_REQUEST', message: 'The request address is not valid' });
    }
  });

  it('answers a path parameter over 100 characters with 414, in the API shape', async () => {
    const long = 'a'.repeat(101);
    for (const path of [`/api/links/check-availability/${long}`, `/s/${long}`]) {
      const response = await send(account.client, 'GET', path);
      expect(response.status).toBe(414);
      expect(response.body).toEqual({ code: 'BAD_REQUEST', message: 'The request address is not valid' });
    }
  });

  it('answers a short code holding U+0000 with 404, as any unknown code', async () => {
    const response = await send(account.client, 'GET', '/s/ab%00cd');
    expect(response.status).toBe(404);
  });
});
