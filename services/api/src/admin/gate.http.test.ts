import { type HttpClient, signedUpClient, startTestApi, testApiWithAdmin } from '@sniplink/test-support/api';
import { type RegisteredRoute, recordingRoutes } from '@sniplink/test-support/routes';
import { beforeAll, describe, expect, it } from 'vitest';
import { declarationOf } from '../http/route-schema';

let adminRoutes: RegisteredRoute[];
let openRoutes: RegisteredRoute[];
const t = testApiWithAdmin('gate.admin@example.com', {
  start: async (env) => {
    const recorded = await recordingRoutes(() => startTestApi(env));
    const underAdmin = recorded.routes.filter(
      (route) => route.path.startsWith('/api/admin') && route.method !== 'head',
    );
    // A route declared open to anyone is registered outside the gate, on purpose: the list of them is pinned.
    const isOpen = (route: RegisteredRoute) => declarationOf(route.schema)?.session !== 'admin';
    adminRoutes = underAdmin.filter((route) => !isOpen(route));
    openRoutes = underAdmin.filter(isOpen);
    return recorded.result;
  },
});
let member: HttpClient;
beforeAll(async () => {
  ({ client: member } = await signedUpClient(t.api, 'gate.member'));
});

/** A concrete URL for a route: each `{param}` filled with a well-formed id that names nothing. */
const urlOf = (route: RegisteredRoute) =>
  route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

/** The JSON body a client would send: enough for a validator to look at, never reached by the gate's refusals. */
const bodyOf = (route: RegisteredRoute) =>
  ['post', 'put', 'patch', 'delete'].includes(route.method) ? {} : undefined;

describe('the admin gate, walked over every registered /api/admin route', () => {
  it('finds the console’s routes in the route table', () => {
    expect(adminRoutes.length).toBeGreaterThan(0);
  });

  it('finds no route under /api/admin open to anyone but the list of SEO entries', () => {
    expect(openRoutes.map((route) => `${route.method} ${route.path}`)).toEqual(['get /api/admin/seo']);
  });

  it('answers 401 with a JSON error to a signed-out caller, on every route', async () => {
    const signedOut = t.api.client();
    for (const route of adminRoutes) {
      const response = await signedOut.request(route.method.toUpperCase(), urlOf(route), bodyOf(route));
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
      expect(response.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    }
  });

  it('answers 403 ADMIN_REQUIRED to a signed-in user who is not an admin, on every route', async () => {
    for (const route of adminRoutes) {
      const response = await member.request(route.method.toUpperCase(), urlOf(route), bodyOf(route));
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
      });
      expect(response.body).toMatchObject({ code: 'ADMIN_REQUIRED', message: 'Admin access required.' });
    }
  });

  it('lets an admin through to the route itself', async () => {
    for (const route of adminRoutes) {
      const response = await t.admin.request(route.method.toUpperCase(), urlOf(route), bodyOf(route));
      expect([401, 403]).not.toContain(response.status);
    }
  });

  it('documents each admin route as needing an admin session (401 and 403 in its answers)', async () => {
    const document = (
      await t.api.client().get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json')
    ).body;
    for (const route of adminRoutes) {
      const operation = document.paths[route.path]?.[route.method] as
        | { responses: Record<string, unknown> }
        | undefined;
      expect(operation?.responses, `${route.method} ${route.path}`).toHaveProperty('401');
      expect(operation?.responses, `${route.method} ${route.path}`).toHaveProperty('403');
    }
  });
});
