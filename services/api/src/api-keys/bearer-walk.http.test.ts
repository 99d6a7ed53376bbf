import { type ApiKeyScope, apiKeyScopes, type CreatedApiKey } from '@sniplink/contracts';
import { signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { type RegisteredRoute, recordingRoutes } from '@sniplink/test-support/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarationOf } from '../http/route-schema';

let api: TestApi;
let routes: RegisteredRoute[];
let keyOf: (scopes: readonly ApiKeyScope[]) => Promise<string>;
let cookie: string;
beforeAll(async () => {
  const recorded = await recordingRoutes(() => startTestApi());
  api = recorded.result;
  routes = recorded.routes.filter((route) => route.path.startsWith('/api/') && route.method !== 'head');
  const owner = await signedUpClient(api, 'walk.keys');
  cookie = `sid=${owner.client.cookies.get('sid')}`;
  // One key per set of scopes, made once: an account holds a bounded number of keys.
  const made = new Map<string, Promise<string>>();
  keyOf = (scopes) => {
    const name = scopes.join(' ');
    const key =
      made.get(name) ??
      owner.client.post<CreatedApiKey>('/api/api-keys', { name: 'walk', scopes }).then((created) => {
        expect(created.status).toBe(201);
        return created.body.secret;
      });
    made.set(name, key);
    return key;
  };
});
afterAll(() => api.close());

const nameOf = (route: RegisteredRoute) => `${route.method} ${route.path}`;
const urlOf = (route: RegisteredRoute) =>
  route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
const scopeOf = (route: RegisteredRoute) => declarationOf(route.schema)?.apiKey;
const signedIn = (route: RegisteredRoute) => {
  const session = declarationOf(route.schema)?.session;
  return session === 'required' || session === 'admin';
};

/** A bearer call of the route, with the owner's live cookie beside it (which must not count). */
const call = (route: RegisteredRoute, secret: string) =>
  fetch(`${api.baseUrl}${urlOf(route)}`, {
    method: route.method.toUpperCase(),
    headers: { authorization: `Bearer ${secret}`, cookie, 'content-type': 'application/json' },
    body: ['get', 'head'].includes(route.method) ? undefined : '{}',
  });

describe('API keys, walked over every route in the table', () => {
  it('are accepted only where links and analytics declare a scope', () => {
    const accepting = routes.filter(scopeOf);
    expect(accepting.map(nameOf)).toEqual(
      expect.arrayContaining(['post /api/links', 'get /api/links', 'get /api/analytics/user']),
    );
    for (const route of accepting) {
      expect(route.path, nameOf(route)).toMatch(/^\/api\/(links|analytics)(\/|$)/);
      expect(signedIn(route), nameOf(route)).toBe(true);
    }
  });

  it('refuse a bearer call with 401 on every other signed-in route, cookie or not', async () => {
    const everyScope = await keyOf(apiKeyScopes);
    const closed = routes.filter((route) => signedIn(route) && !scopeOf(route));
    expect(closed.length).toBeGreaterThan(30);
    expect(closed.map(nameOf)).toEqual(
      expect.arrayContaining(['get /api/auth/user', 'get /api/api-keys', 'get /api/admin/users']),
    );
    for (const route of closed) {
      expect({ route: nameOf(route), status: (await call(route, everyScope)).status }).toEqual({
        route: nameOf(route),
        status: 401,
      });
    }
  });

  it('refuse a key without the route’s scope with 403 INSUFFICIENT_SCOPE naming it, and let one with it in', async () => {
    for (const route of routes.filter(scopeOf)) {
      const scope = scopeOf(route) as ApiKeyScope;
      const without = await keyOf(apiKeyScopes.filter((other) => other !== scope));
      const refused = await call(route, without);
      expect({ route: nameOf(route), status: refused.status }).toEqual({ route: nameOf(route), status: 403 });
      expect(await refused.json()).toEqual({
        code: 'INSUFFICIENT_SCOPE',
        message: `This API key lacks the ${scope} scope`,
      });
      const allowed = await call(route, await keyOf([scope]));
      expect([401, 403, 429], nameOf(route)).not.toContain(allowed.status);
    }
  });

  it('states each accepting operation’s scope in the OpenAPI document, beside the session', async () => {
    const document = (await api.client().get<OpenApi>('/api/openapi.json')).body;
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of routes.filter(scopeOf)) {
      expect(document.paths[route.path]?.[route.method]?.security, nameOf(route)).toEqual([
        { sessionCookie: [] },
        { apiKey: [scopeOf(route)] },
      ]);
    }
    for (const route of routes.filter((route) => signedIn(route) && !scopeOf(route))) {
      const security = document.paths[route.path]?.[route.method]?.security ?? [];
      expect(JSON.stringify(security), nameOf(route)).not.toContain('apiKey');
    }
  });
});

interface OpenApi {
  components: { securitySchemes: Record<string, Record<string, unknown>> };
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}
