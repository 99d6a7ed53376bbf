import type { ErrorBody, User } from '@sniplink/contracts';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ADMIN_EMAILS: 'Boss@Example.com', LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
});
afterAll(() => api.close());

let counter = 0;
const uniqueEmail = (name = 'user') => `${name}.${Date.now()}.${++counter}@example.com`;

async function signUp(email = uniqueEmail(), extra: Record<string, unknown> = {}) {
  const client = api.client();
  const response = await client.post<User>('/api/auth/register', {
    email,
    password: 'correct horse',
    ...extra,
  });
  expect(response.status).toBe(201);
  return { client, email, user: response.body };
}

describe('sign-up', () => {
  it('creates the account, starts a session and answers with the user fields', async () => {
    const email = uniqueEmail('ada');
    const client = api.client();
    const response = await client.post<User>('/api/auth/register', {
      email,
      password: 'correct horse',
      firstName: ' Ada ',
      lastName: 'Lovelace',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      profileImageUrl: null,
      isAdmin: false,
      subscriptionStatus: 'inactive',
      subscriptionPlan: null,
      linksCreatedThisMonth: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      emailVerified: false,
      billing: { periodEnd: null, cancelAtPeriodEnd: false, paymentFailed: false, canManage: false },
      linkAllowance: { period: 'lifetime', used: 0, limit: 5, remaining: 5 },
    });
    const me = await client.get<User>('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(response.body.id);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax', async () => {
    const response = await fetch(`${api.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'correct horse' }),
    });
    const cookie = response.headers.getSetCookie()[0] ?? '';
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('refuses a password under 8 characters with 400 naming the field', async () => {
    const response = await api
      .client()
      .post<ErrorBody>('/api/auth/register', { email: uniqueEmail(), password: 'short' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'password must be at least 8 characters',
      field: 'password',
    });
  });

  it('refuses a malformed e-mail and a missing field, without echoing the input', async () => {
    const bad = await api
      .client()
      .post<ErrorBody>('/api/auth/register', { email: 'not-an-email<script>', password: 'correct horse' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('email');
    expect(bad.text).not.toContain('<script>');
    const missing = await api.client().post<ErrorBody>('/api/auth/register', { email: uniqueEmail() });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'password', message: 'password is required' });
  });

  it('refuses an e-mail already registered, ignoring case, with 409 EMAIL_TAKEN', async () => {
    const { email } = await signUp();
    const again = await api
      .client()
      .post<ErrorBody>('/api/auth/register', { email: email.toUpperCase(), password: 'another one' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'EMAIL_TAKEN', field: 'email' });
  });

  it('lets exactly one of 10 simultaneous sign-ups with one address through', async () => {
    const email = uniqueEmail('race');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.client().post('/api/auth/register', { email, password: 'correct horse' }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it('answers bad JSON with a 400, never a 500', async () => {
    const response = await api.client().post<ErrorBody>('/api/auth/register', '{"email": ');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
  });

  it('makes accounts named in ADMIN_EMAILS admins', async () => {
    const { user } = await signUp(`boss@example.com`);
    expect(user.isAdmin).toBe(true);
  });
});

describe('sign-in', () => {
  it('signs in with the right password (any case of the e-mail) and rotates the session id', async () => {
    const { email, client } = await signUp();
    const before = client.cookies.get('sid');
    const response = await client.post<User>('/api/auth/login', {
      email: email.toUpperCase(),
      password: 'correct horse',
    });
    expect(response.status).toBe(200);
    expect(response.body.email).toBe(email);
    const after = client.cookies.get('sid');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // The old id is dead: replaying it is a 401.
    const replay = await fetch(`${api.baseUrl}/api/auth/user`, { headers: { cookie: `sid=${before}` } });
    expect(replay.status).toBe(401);
  });

  it('answers a wrong password and an unknown address alike: 401 INVALID_CREDENTIALS', async () => {
    const { email } = await signUp();
    const wrong = await api
      .client()
      .post<ErrorBody>('/api/auth/login', { email, password: 'wrong password' });
    const unknown = await api
      .client()
      .post<ErrorBody>('/api/auth/login', { email: uniqueEmail('nobody'), password: 'whatever1' });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_CREDENTIALS');
    }
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it('answers 429 RATE_LIMITED after repeated failures on one account from one address, even with the right password then', async () => {
    const { email } = await signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await api.client().post('/api/auth/login', { email, password: `wrong ${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const right = await api.client().post<ErrorBody>('/api/auth/login', { email, password: 'correct horse' });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('RATE_LIMITED');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the current user and the profile', () => {
  it('answers 401 with Unauthorized in the body when signed out', async () => {
    const response = await api.client().get<ErrorBody>('/api/auth/user');
    expect(response.status).toBe(401);
    expect(response.text).toContain('Unauthorized');
  });

  it('answers "who am I" with 200 either way: null signed out (or with a dead session), the user signed in', async () => {
    const signedOut = await api.client().get<{ user: User | null }>('/api/auth/session');
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toEqual({ user: null });
    const stale = await fetch(`${api.baseUrl}/api/auth/session`, {
      headers: { cookie: 'sid=no-such-session' },
    });
    expect([stale.status, await stale.json()]).toEqual([200, { user: null }]);
    const { client, email } = await signUp();
    const signedIn = await client.get<{ user: User | null }>('/api/auth/session');
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    expect(signedIn.body.user).toEqual((await client.get<User>('/api/auth/user')).body);
    expect(signedIn.body.user?.email).toBe(email);
  });

  it('updates first and last name, and never applies other fields', async () => {
    const { client, email } = await signUp();
    const response = await client.patch<User>('/api/user/profile', {
      firstName: 'Grace',
      lastName: 'Hopper',
      isAdmin: true,
      email: 'evil@example.com',
      subscriptionStatus: 'active',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      isAdmin: false,
      email,
      subscriptionStatus: 'inactive',
    });
    expect((await client.get<User>('/api/auth/user')).body.firstName).toBe('Grace');
  });

  it('keeps a name left out of the update, and clears one sent blank', async () => {
    const { client } = await signUp(uniqueEmail(), { firstName: 'Alan', lastName: 'Turing' });
    expect((await client.patch<User>('/api/user/profile', { lastName: 'T.' })).body).toMatchObject({
      firstName: 'Alan',
      lastName: 'T.',
    });
    expect((await client.patch<User>('/api/user/profile', { firstName: '  ' })).body).toMatchObject({
      firstName: null,
      lastName: 'T.',
    });
    // A name of invisible characters only is as blank.
    expect((await client.patch<User>('/api/user/profile', { lastName: '\u200B\u3000' })).body).toMatchObject({
      firstName: null,
      lastName: null,
    });
  });

  it('refuses a profile update when signed out, and an over-long name', async () => {
    expect((await api.client().patch('/api/user/profile', { firstName: 'X' })).status).toBe(401);
    const { client } = await signUp();
    const long = await client.patch<ErrorBody>('/api/user/profile', { firstName: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe('firstName');
  });
});

describe('sign-out', () => {
  it('GET /api/logout ends the session and redirects to /; the old cookie no longer works', async () => {
    const { client } = await signUp();
    const sid = client.cookies.get('sid');
    const response = await client.get('/api/logout');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(client.cookies.has('sid')).toBe(false);
    const replay = await fetch(`${api.baseUrl}/api/auth/user`, { headers: { cookie: `sid=${sid}` } });
    expect(replay.status).toBe(401);
  });

  it('signs out everywhere: every session of the account ends', async () => {
    const { client: first, email } = await signUp();
    const second = api.client();
    await second.post('/api/auth/login', { email, password: 'correct horse' });
    expect((await second.get('/api/auth/user')).status).toBe(200);
    const response = await first.post<{ ok: boolean; sessionsEnded: number }>('/api/auth/logout-all');
    expect(response.body).toEqual({ ok: true, sessionsEnded: 2 });
    expect((await first.get('/api/auth/user')).status).toBe(401);
    expect((await second.get('/api/auth/user')).status).toBe(401);
  });
});

describe('navigations and origins', () => {
  it('GET /api/login leads to the sign-in page, keeping only a returnTo of this site', async () => {
    const client = api.client();
    const local = await client.get('/api/login?returnTo=%2Fhome%3Ftab%3D1');
    expect(local.status).toBe(302);
    expect(local.headers.get('location')).toBe('/login?returnTo=%2Fhome%3Ftab%3D1');
    for (const evil of [
      'https://evil.example/x',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const response = await client.get(`/api/login?returnTo=${encodeURIComponent(evil)}`);
      expect(response.headers.get('location')).toBe('/login');
    }
  });

  it('GET /api/login?tab=create ("Start Free") leads to the Create account tab, with its returnTo', async () => {
    const client = api.client();
    const start = await client.get('/api/login?tab=create');
    expect(start.headers.get('location')).toBe('/login?tab=create');
    const withReturn = await client.get('/api/login?returnTo=%2Fsubscribe&tab=create');
    expect(withReturn.headers.get('location')).toBe('/login?returnTo=%2Fsubscribe&tab=create');
    // Any other tab is the default one, Sign in.
    const other = await client.get('/api/login?tab=%2F%2Fevil.example');
    expect(other.headers.get('location')).toBe('/login');
  });

  it('refuses a state-changing request from another site, and allows this site and no Origin', async () => {
    const foreign = await api
      .client()
      .post<ErrorBody>(
        '/api/auth/register',
        { email: uniqueEmail(), password: 'correct horse' },
        { origin: 'https://evil.example' },
      );
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('FORBIDDEN_ORIGIN');
    const own = await api
      .client()
      .post(
        '/api/auth/register',
        { email: uniqueEmail(), password: 'correct horse' },
        { origin: api.config.publicUrl },
      );
    expect(own.status).toBe(201);
  });
});
