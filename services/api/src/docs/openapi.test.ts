import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { type RegisteredRoute as Route, recordingRoutes } from '@sniplink/test-support/routes';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Operation = OpenAPIV3_1.OperationObject;
type Answer = OpenAPIV3_1.ResponseObject;

let api: TestApi;
let registered: Route[];
let document: OpenAPIV3_1.Document;
beforeAll(async () => {
  ({ result: api, routes: registered } = await recordingRoutes(() => startTestApi()));
  document = (await api.client().get<OpenAPIV3_1.Document>('/api/openapi.json')).body;
});
afterAll(() => api.close());

const operation = (path: string, method: string): Operation =>
  document.paths?.[path]?.[method as 'get'] ?? expect.fail(`${method} ${path} is not documented`);
const answer = (op: Operation, status: number) => op.responses?.[status] as Answer | undefined;
const jsonSchemaOf = (response: Answer | undefined) =>
  response?.content?.['application/json']?.schema as Record<string, unknown> | undefined;
/** The codes an error answer lists: its schema is the ErrorBody component with `code` narrowed. */
const codesOf = (response: Answer | undefined) => {
  const schema = jsonSchemaOf(response) as { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> };
  return schema?.allOf?.[1]?.properties?.code?.enum;
};
/** The routes a client calls: Swagger UI's own files and the web app's pages are left out. */
const documentable = () => registered.filter((route) => route.method !== 'head' && !route.schema?.hide);

describe('the OpenAPI document', () => {
  it('is served at /api/openapi.json as JSON, OpenAPI 3.1, with named schemas', async () => {
    const response = await api.client().get('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Sniplink API', version: expect.any(String) },
      components: { securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    });
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining([
        'User',
        'Link',
        'Availability',
        'LinkAnalytics',
        'UserAnalytics',
        'DemoLink',
        'ErrorBody',
        'Readiness',
        'RegisterBodyInput',
        'DemoShortenBodyInput',
      ]),
    );
  });

  it('documents every registered /api route with the schemas of its request and its answers', () => {
    const apiRoutes = documentable().filter((route) => route.path.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(20);
    for (const route of apiRoutes) {
      const where = `${route.method} ${route.path}`;
      const op = operation(route.path, route.method);
      const declared = (route.schema?.response ?? {}) as Record<string, unknown>;
      const successes = Object.keys(declared).filter((status) => Number(status) < 400);
      expect(successes, `${where} declares what it answers`).not.toEqual([]);
      for (const status of Object.keys(declared)) {
        expect(op.responses?.[status], `${where} answers ${status}`).toBeDefined();
      }
      if (route.schema?.body) {
        expect(op.requestBody, `${where} takes a body`).toMatchObject({
          content: { 'application/json': { schema: expect.any(Object) } },
        });
      }
      const parameters = (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
      for (const [part, place] of [
        ['querystring', 'query'],
        ['params', 'path'],
        ['headers', 'header'],
      ] as const) {
        if (route.schema?.[part]) {
          expect(parameters.some((parameter) => parameter.in === place)).toBe(true);
        }
      }
    }
  });

  it('documents the redirect and the health checks too, and nothing the app does not serve', () => {
    const served = documentable();
    for (const path of ['/s/{code}', '/healthz', '/readyz']) {
      expect(served.some((route) => route.path === path)).toBe(true);
      operation(path, 'get');
    }
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods ?? {}).map((method) => ({ method, path })),
    );
    const unserved = documented.filter(
      (doc) => !served.some((route) => route.method === doc.method && route.path === doc.path),
    );
    expect(unserved).toEqual([]);
    // The web app's pages and the docs page's own files are not part of it.
    expect(Object.keys(document.paths ?? {}).filter((path) => path.startsWith('/api/docs'))).toEqual([]);
  });

  it('names every operation once, in camelCase, for generated clients', () => {
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods ?? {}).map(([method, op]) => ({
        where: `${method} ${path}`,
        id: (op as Operation).operationId,
      })),
    );
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.filter(({ id }) => id === undefined).map(({ where }) => where)).toEqual([]);
    for (const { where, id } of operations) expect(id, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    const ids = operations.map(({ id }) => id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(operation('/api/support/tickets', 'post').operationId).toBe('openTicket');
  });

  it('makes the Link schema require exactly the documented fields', () => {
    const link = document.components?.schemas?.Link as { required: string[]; properties: object };
    expect([...link.required].sort()).toEqual(
      [
        'clickCount',
        'createdAt',
        'id',
        'originalUrl',
        'pendingApproval',
        'shortCode',
        'shortUrl',
        'title',
        'hasPassword',
        'expiresAt',
        'maxClicks',
        'clicksUsed',
        'fallbackUrl',
        'paused',
        'tags',
        'rules',
        'status',
      ].sort(),
    );
    expect(Object.keys(link.properties).sort()).toEqual([...link.required].sort());
  });

  it("lists each call's success and the error codes of each status", () => {
    const register = operation('/api/auth/register', 'post');
    expect(Object.keys(register.responses ?? {})).toEqual([
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
    expect(answer(register, 201)?.headers).toHaveProperty('Set-Cookie');
    expect(codesOf(answer(register, 400))).toEqual(['BAD_REQUEST', 'VALIDATION_FAILED']);
    expect(codesOf(answer(register, 403))).toEqual(['FORBIDDEN_ORIGIN']);
    expect(codesOf(answer(register, 409))).toEqual(['EMAIL_TAKEN']);
    expect(register.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/RegisterBodyInput' } } },
    });

    const login = operation('/api/auth/login', 'post');
    expect(codesOf(answer(login, 401))).toEqual(['INVALID_CREDENTIALS']);
    expect(codesOf(answer(login, 403))).toEqual(['ACCOUNT_SUSPENDED', 'FORBIDDEN_ORIGIN']);
    expect(answer(login, 429)?.headers).toHaveProperty('Retry-After');

    const create = operation('/api/links', 'post');
    expect(create.security).toEqual([{ sessionCookie: [] }, { apiKey: ['links:write'] }]);
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'idempotency-key', in: 'header', required: false }),
    );
    expect(codesOf(answer(create, 400))).toEqual([
      'BAD_REQUEST',
      'INVALID_SHORT_CODE',
      'INVALID_URL',
      'PROHIBITED_CODE',
      'PROTECTED_BRAND',
      'VALIDATION_FAILED',
    ]);
    expect(codesOf(answer(create, 401))).toEqual(['UNAUTHORIZED']);
    expect(codesOf(answer(create, 403))).toEqual([
      'FORBIDDEN_ORIGIN',
      'INSUFFICIENT_SCOPE',
      'MONTHLY_LIMIT_REACHED',
      'SUBSCRIPTION_REQUIRED',
    ]);
    expect(codesOf(answer(create, 413))).toEqual(['PAYLOAD_TOO_LARGE']);

    const list = operation('/api/links', 'get');
    expect(list.security).toEqual([{ sessionCookie: [] }, { apiKey: ['links:read'] }]);
    const listParameters = (list.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
    expect(listParameters.map((parameter) => parameter.name)).toEqual(['search', 'tag', 'limit', 'offset']);
    expect(jsonSchemaOf(answer(list, 200))).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Link' },
    });
    expect(codesOf(answer(operation('/api/links/{id}', 'patch'), 404))).toEqual(['NOT_FOUND']);
    expect(answer(operation('/api/analytics/export', 'get'), 200)?.content).toHaveProperty('text/csv');
    expect(operation('/api/demo/links', 'get').security).toEqual([{}, { sessionCookie: [] }]);
    expect(Object.keys(operation('/s/{code}', 'get').responses ?? {})).toEqual([
      '302',
      '400',
      '403',
      '404',
      '410',
      '414',
      '423',
      '429',
    ]);
    // The password form: a body, so the answers of every request with one too (408, 413, 415).
    expect(Object.keys(operation('/s/{code}', 'post').responses ?? {})).toEqual([
      '302',
      '400',
      '403',
      '404',
      '408',
      '410',
      '413',
      '414',
      '415',
      '429',
    ]);
    expect(answer(operation('/s/{code}', 'get'), 302)?.headers).toHaveProperty('Location');
    expect(Object.keys(operation('/readyz', 'get').responses ?? {})).toEqual(['200', '503']);
  });

  it('points every $ref at a schema it defines', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)];
    expect(refs.length).toBeGreaterThan(20);
    for (const [, name] of refs) expect(document.components?.schemas).toHaveProperty(name as string);
  });
});

describe('the docs page', () => {
  it('is Swagger UI at /api/docs, from files of this site, reading the same document', async () => {
    const page = await api.client().get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, source]) => source);
    expect(sources).toContain('/api/docs/static/swagger-ui-bundle.js');
    expect(sources.filter((source) => /^(https?:)?\/\//.test(source ?? ''))).toEqual([]);
    expect(page.text).not.toMatch(/<script>/);
    const script = await api.client().get('/api/docs/static/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect((await api.client().get('/api/docs/json')).body).toEqual(document);
  });
});
