import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { type RegisteredRoute, recordingRoutes } from '@sniplink/test-support/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarationOf, STATE_CHANGING } from './route-schema';

const ADMIN_EMAIL = 'walk.admin@example.com';
const PASSWORD = 'correct horse';

let api: TestApi;
let writes: RegisteredRoute[];
let signedInWrites: RegisteredRoute[];
beforeAll(async () => {
  // Every limit scaled down to one request: the second call of any signed-in write route is the first refused.
  const recorded = await recordingRoutes(() =>
    startTestApi({ ADMIN_EMAILS: ADMIN_EMAIL, WRITE_LIMIT_SCALE: '0.0001' }),
  );
  api = recorded.result;
  writes = recorded.routes.filter(
    (route) => route.path.startsWith('/api/') && STATE_CHANGING.has(route.method.toUpperCase()),
  );
  signedInWrites = writes.filter((route) => {
    const session = declarationOf(route.schema)?.session;
    return session === 'required' || session === 'admin';
  });
});
afterAll(() => api.close());

const nameOf = (route: RegisteredRoute) => `${route.method} ${route.path}`;
const urlOf = (route: RegisteredRoute) =>
  route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

const registered = new Set<string>();
/** The route's caller, signed in anew: a first call that ends its sessions (sign out everywhere) cannot hide a 429. */
async function signIn(email: string): Promise<HttpClient> {
  const client = api.client();
  const path = registered.has(email) ? '/api/auth/login' : '/api/auth/register';
  await client.post(path, { email, password: PASSWORD });
  registered.add(email);
  expect(client.cookies.has('sid'), `signed in as ${email}`).toBe(true);
  return client;
}

let users = 0;
const callerOf = (route: RegisteredRoute) =>
  declarationOf(route.schema)?.session === 'admin' ? ADMIN_EMAIL : `walk.user.${++users}@example.com`;

describe('the per-user write limits, walked over every route in the table', () => {
  it('finds signed-in write routes, admin ones among them', () => {
    expect(signedInWrites.length).toBeGreaterThan(10);
    expect(signedInWrites.some((route) => route.path.startsWith('/api/admin/'))).toBe(true);
  });

  it('declares every /api state change with `operation`, so none escapes the hook', () => {
    const undeclared = writes.filter((route) => !declarationOf(route.schema)).map(nameOf);
    expect(undeclared).toEqual([]);
  });

  it('states each signed-in write route’s limit in the OpenAPI document', async () => {
    const document = (
      await api
        .client()
        .get<{ paths: Record<string, Record<string, Record<string, unknown>>> }>('/api/openapi.json')
    ).body;
    for (const route of signedInWrites) {
      const operation = document.paths[route.path]?.[route.method];
      expect(operation?.['x-rate-limit'], nameOf(route)).toEqual({
        requests: 1,
        windowSeconds: expect.any(Number),
        per: 'user',
      });
      expect(operation?.description, nameOf(route)).toMatch(
        /Rate limit: 1 per (minute|\d+ minutes) per user/,
      );
    }
  });

  it('refuses the call past the limit with 429 RATE_LIMITED and Retry-After, on every route', async () => {
    for (const route of signedInWrites) {
      const email = callerOf(route);
      const first = await (await signIn(email)).request(route.method.toUpperCase(), urlOf(route), {});
      expect(first.status, nameOf(route)).not.toBe(429);
      const second = await (await signIn(email)).request(route.method.toUpperCase(), urlOf(route), {});
      expect({ route: nameOf(route), status: second.status }).toEqual({ route: nameOf(route), status: 429 });
      expect(second.body).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Two sign-ins (a password hash each) per route, for every signed-in write route the app has.
  }, 120_000);

  it('leaves the public state changes (sign-in, sign-up, sign-out) to their own throttles', () => {
    const publicWrites = writes.filter((route) => !signedInWrites.includes(route)).map(nameOf);
    expect(publicWrites).toContain('post /api/auth/login');
    expect(publicWrites).toContain('post /api/auth/logout');
  });
});
