import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { type Answer, API_KEY_SCHEME, headerSchemas, SESSION_SCHEME } from '../http/route-schema';

/*
 * The schemas the document names (`#/components/schemas/…`) carry their name where contracts/ defines them
 * (`.meta({ id: 'Ticket' })`); the others stand inline where they are used. A request body's component is
 * its name with `Input` (the client's view: optional fields, defaults).
 */

/** What the document covers; the web app's pages and files are not API. */
const DOCUMENTED_PREFIXES = ['/api/', '/s/', '/healthz', '/readyz'];

const zodTransform = createJsonSchemaTransform({});
const zodComponents = createJsonSchemaTransformObject({});

/**
 * @fastify/swagger collects every route registered after it and builds the OpenAPI 3.1 document from the
 * routes' own zod schemas (fastify-type-provider-zod's transform), once, on the first request for it.
 * Register before any route.
 */
export async function collectOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sniplink API',
        version: '1.0.0',
        description:
          'Every error is JSON `{ code, message, field? }`; messages never repeat input. A state-changing ' +
          'request whose Origin is not this site is refused (403 FORBIDDEN_ORIGIN); bodies are JSON only ' +
          '(but for the empty form of `POST /api/logout`).',
      },
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: 'sid',
            description: 'The session, set by sign-up and sign-in (HttpOnly, SameSite=Lax)',
          },
          [API_KEY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key (`Authorization: Bearer sk_live_…`), made in Profile. An operation that accepts one lists the scope it needs (`links:read`, `links:write`, `analytics:read`); any other answers 401 to a bearer call. Each key may make `api_keys.requests_per_minute` (60) calls a minute: every bearer answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`, and past it 429 with `Retry-After`. A bearer call sends no cookie that counts and passes no origin check.',
          },
        },
      },
    },
    transform: (route) => {
      if (!DOCUMENTED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
        return { schema: { hide: true } as typeof route.schema, url: route.url };
      }
      const transformed = zodTransform(route);
      withAnswerHeaders(route.schema?.response, transformed.schema?.response);
      return transformed;
    },
    transformObject: (document) => withoutUnusedComponents(zodComponents(document)),
  });
}

/**
 * `GET /api/openapi.json`: the document; `GET /api/docs`: the same, browsable (Swagger UI, served from
 * this app: its scripts and styles are files of this site, as the web app's policy asks).
 */
export async function serveOpenApi(app: FastifyInstance): Promise<void> {
  app.get('/api/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', defaultModelsExpandDepth: 0 },
    theme: { title: 'Sniplink API' },
  });
}

/** The transform keeps an answer's description and content, not its headers: they are put back here. */
function withAnswerHeaders(declared: unknown, transformed: unknown): void {
  if (typeof declared !== 'object' || declared === null) return;
  for (const [status, answer] of Object.entries(declared as Record<string, Partial<Answer>>)) {
    const target = (transformed as Record<string, Record<string, unknown>> | undefined)?.[status];
    if (answer.headers && target) target.headers = headerSchemas(answer.headers);
  }
}

/**
 * The transform makes an input and an output component of every named schema; the document keeps those
 * something refers to.
 */
function withoutUnusedComponents<D extends { paths?: unknown; components?: { schemas?: object } }>(
  document: D,
): D {
  const schemas: Record<string, unknown> = { ...document.components?.schemas };
  const used = new Set<string>();
  const pending: unknown[] = [document.paths];
  for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        const name = child.replace('#/components/schemas/', '');
        if (!used.has(name)) {
          used.add(name);
          pending.push(schemas[name]);
        }
      } else pending.push(child);
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
