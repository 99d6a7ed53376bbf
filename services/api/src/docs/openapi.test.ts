import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../../test/support/api';
import type { OpenApiDocument, ResponseObject } from './openapi';

interface Route {
  method: string;
  /** In OpenAPI's form: `/api/links/{id}`. */
  path: string;
}

/**
 * Runs `start` while recording every route the Fastify instances it creates register. Fastify announces
 * each new instance on this channel before any route exists, so an `onRoute` hook sees them all.
 */
async function recordingRoutes<T>(start: () => Promise<T>): Promise<{ result: T; routes: Route[] }> {
  const routes: Route[] = [];
  const onInstance = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      for (const method of methods) routes.push({ method: method.toLowerCase(), path });
    });
  };
  subscribe('fastify.initialization', onInstance);
  try {
    return { result: await start(), routes };
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
}

let api: TestApi;
let registered: Route[];
let document: OpenApiDocument;
beforeAll(async () => {
  ({ result: api, routes: registered } = await recordingRoutes(() => startTestApi()));
  document = (await api.client().get<OpenApiDocument>('/api/docs')).body;
});
afterAll(() => api.close());

const operation = (path: string, method: string) =>
  document.paths[path]?.[method as 'get'] ?? expect.fail(`${method} ${path} is not documented`);
const codesOf = (response: ResponseObject | undefined) => response?.['x-error-codes'];

describe('the OpenAPI document', () => {
  it('is served at /api/docs as JSON, and looks like OpenAPI 3.1', async () => {
    const response = await api.client().get('/api/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { title: expect.any(String), version: expect.any(String) },
      paths: expect.any(Object),
      components: {
        schemas: expect.any(Object),
        securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      },
    });
    const schemas = Object.keys(document.components.schemas);
    for (const name of ['User', 'Link', 'Availability', 'LinkAnalytics', 'UserAnalytics', 'DemoLink']) {
      expect(schemas).toContain(name);
    }
    expect(schemas).toEqual(
      expect.arrayContaining(['ErrorBody', 'Readiness', 'RegisterBody', 'DemoShortenBody']),
    );
  });

  it('documents every route the app registered, with its method', () => {
    const served = registered.filter((route) => route.method !== 'head');
    expect(served.length).toBeGreaterThan(20);
    const missing = served.filter((route) => !document.paths[route.path]?.[route.method as 'get']);
    expect(missing).toEqual([]);
  });

  it('documents nothing the app does not serve (the OpenID callback exists only with OIDC_ISSUER)', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method, path })),
    );
    const unserved = documented.filter(
      (doc) => !registered.some((route) => route.method === doc.method && route.path === doc.path),
    );
    expect(unserved).toEqual([{ method: 'get', path: '/api/auth/callback' }]);
  });

  it("makes the Link schema require exactly the spec's fields", () => {
    const link = document.components.schemas.Link as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect([...link.required].sort()).toEqual(
      ['clickCount', 'createdAt', 'id', 'originalUrl', 'shortCode', 'shortUrl', 'title'].sort(),
    );
    expect(Object.keys(link.properties).sort()).toEqual([...link.required].sort());
    expect(link.properties.title).toEqual({ type: ['string', 'null'] });
  });

  it('lists the success status and the error codes of each call', () => {
    const register = operation('/api/auth/register', 'post');
    expect(Object.keys(register.responses)).toEqual([
      '201',
      '400',
      '403',
      '408',
      '409',
      '413',
      '415',
      '429',
      '503',
    ]);
    expect(codesOf(register.responses[429])).toEqual(['RATE_LIMITED']);
    expect(codesOf(register.responses[400])).toEqual(['BAD_REQUEST', 'VALIDATION_FAILED']);
    expect(codesOf(register.responses[403])).toEqual(['FORBIDDEN_ORIGIN']);
    expect(codesOf(register.responses[409])).toEqual(['EMAIL_TAKEN']);
    expect(register.requestBody?.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RegisterBody',
    });

    const login = operation('/api/auth/login', 'post');
    expect(codesOf(login.responses[401])).toEqual(['INVALID_CREDENTIALS']);
    expect(codesOf(login.responses[403])).toEqual(['FORBIDDEN_ORIGIN', 'ACCOUNT_SUSPENDED']);
    expect(codesOf(login.responses[429])).toEqual(['RATE_LIMITED']);
    expect(login.responses[429]?.headers).toHaveProperty('Retry-After');

    const create = operation('/api/links', 'post');
    expect(create.security).toEqual([{ sessionCookie: [] }]);
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    );
    expect(codesOf(create.responses[400])).toEqual(
      expect.arrayContaining(['VALIDATION_FAILED', 'INVALID_URL', 'INVALID_SHORT_CODE']),
    );
    expect(codesOf(create.responses[401])).toEqual(['UNAUTHORIZED']);
    expect(codesOf(create.responses[403])).toEqual(
      expect.arrayContaining(['FORBIDDEN_ORIGIN', 'SUBSCRIPTION_REQUIRED', 'MONTHLY_LIMIT_REACHED']),
    );
    expect(codesOf(create.responses[409])).toContain('SHORT_CODE_TAKEN');
    expect(codesOf(create.responses[413])).toEqual(['PAYLOAD_TOO_LARGE']);

    const list = operation('/api/links', 'get');
    expect(list.parameters?.map((parameter) => parameter.name)).toEqual(['search', 'limit', 'offset']);
    expect(list.responses[200]?.content?.['application/json']?.schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Link' },
    });
    expect(codesOf(operation('/api/links/{id}', 'patch').responses[404])).toEqual(['NOT_FOUND']);
    expect(operation('/api/analytics/export', 'get').responses[200]?.content).toHaveProperty('text/csv');
    // 400 and 414: a code that is not valid percent-encoding, or over 100 characters, before any lookup.
    expect(Object.keys(operation('/s/{code}', 'get').responses)).toEqual(['302', '400', '404', '410', '414']);
    expect(Object.keys(operation('/readyz', 'get').responses)).toEqual(['200', '503']);
  });

  it('narrows each error schema to the codes it lists', () => {
    const conflict = operation('/api/auth/register', 'post').responses[409];
    expect(conflict?.content?.['application/json']?.schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/ErrorBody' },
        { properties: { code: { enum: ['EMAIL_TAKEN'] } } },
      ],
    });
  });

  it('points every $ref at a schema it defines', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)];
    expect(refs.length).toBeGreaterThan(20);
    for (const [, name] of refs) expect(document.components.schemas).toHaveProperty(name as string);
  });
});

describe('the docs page', () => {
  it('renders every operation at /api/docs.html, self-contained', async () => {
    const response = await api.client().get('/api/docs.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.text).not.toMatch(/<script|<link|src=|https?:\/\//i);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        expect(response.text).toContain(`${method.toUpperCase()}</code> <code>${path}</code>`);
      }
    }
    expect(response.text).toContain('<code>SHORT_CODE_TAKEN</code>');
  });
});
