import {
  type ApiKeyScope,
  apiKeyScopeOf,
  type Endpoint,
  type ErrorCode,
  errorBodySchema,
} from '@sniplink/contracts';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { WriteLimit } from './write-limits';

/**
 * What a route declares about itself, once: fastify validates its request parts with these schemas,
 * serialises its answers through them (a field a schema does not name never leaves the server), and
 * @fastify/swagger builds the OpenAPI document from them (`docs/openapi.ts`).
 */

/** The security scheme of the `sid` cookie in the document. */
export const SESSION_SCHEME = 'sessionCookie';
/** The security scheme of an API key (`Authorization: Bearer sk_live_…`) in the document. */
export const API_KEY_SCHEME = 'apiKey';

/** One answer: its description, its body's schema by media type, and the headers that matter. */
export interface Answer {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
  /** Name -> what it holds (the library's transform leaves them out: `docs/openapi.ts` puts them back). */
  headers?: Record<string, string>;
}

type Answers = Record<number, Answer | z.ZodType>;

export interface Operation {
  /** The call's name in the document and in generated clients: unique, camelCase (`openTicket`). */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /**
   * `required`: 401 without a live `sid` cookie (`checkDeclaredSessions` installs the check, the handler
   * reads the session with `sessionOf`); `optional`: a session changes the answer (`currentSession`, which
   * may be null); `admin`: the session must be an admin's as well (403 otherwise; every `/api/admin` route).
   */
  session?: 'required' | 'optional' | 'admin';
  /**
   * With `session: 'required'`: an API key with this scope may stand in for the session
   * (`Authorization: Bearer`, checked with the session by `checkDeclaredSessions`). By default the scope
   * `apiKeyScopesByEndpoint` (contracts) gives the operationId. A route with neither answers 401 to a
   * bearer call, so a route added later is closed to keys until it says otherwise.
   */
  apiKey?: ApiKeyScope;
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  /** Headers the call reads; a loose object, so the others pass through. */
  headers?: z.ZodType;
  /** The answers that are not errors, by status (`json`, `page`, `redirect`). */
  answers: Answers;
  /**
   * The error codes of the call's own rules, by status. Those that follow from its shape are added when the
   * route is registered (`declareCommonErrors`): 401 for a session, the origin check and the body's errors for
   * a state change, a database that is not reachable for every call.
   */
  errors?: Partial<Record<number, readonly ErrorCode[]>>;
  /**
   * How often one user may call a signed-in state change (`session` required or admin), counted by the
   * write-limits hook (`write-limits.ts`); absent: the default for every such route.
   */
  rateLimit?: WriteLimit;
}

/** What `operation` keeps of a declaration for the hooks that act on every route alike. */
export type Declaration = Pick<Operation, 'errors' | 'session' | 'rateLimit' | 'apiKey'>;

const DECLARED = Symbol('what a route declares about its errors, session and rate limit');
type RouteSchema = FastifySchema & { [DECLARED]?: Declaration };

/** The declaration behind a route's schema; undefined for a route not declared with `operation`. */
export const declarationOf = (schema: unknown): Declaration | undefined =>
  (schema as RouteSchema | undefined)?.[DECLARED];

type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * A route's `schema`: its tag, summary and session for the document, its parts' schemas and its answers.
 * The parts keep their zod types, so that the handler's `request.body` (and the rest) are typed by them.
 */
export function operation<const Spec extends Operation>(
  spec: Spec,
): FastifySchema & { [Part in Extract<keyof Spec, RequestPart>]: Spec[Part] } {
  const apiKey = spec.session === 'required' ? (spec.apiKey ?? apiKeyScopeOf(spec.operationId)) : undefined;
  const schema: RouteSchema = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: security(spec.session, apiKey),
    ...(spec.body ? { body: spec.body } : {}),
    ...(spec.querystring ? { querystring: spec.querystring } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.headers ? { headers: spec.headers } : {}),
    response: spec.answers,
    [DECLARED]: {
      errors: spec.errors,
      session: spec.session,
      rateLimit: spec.rateLimit,
      apiKey,
    },
  };
  return schema as FastifySchema & { [Part in Extract<keyof Spec, RequestPart>]: Spec[Part] };
}

/**
 * What a route says of its endpoint besides what the endpoint holds: each answer's description, by status
 * (a JSON body of the endpoint's schema), or the whole answer where it is another media type (a CSV).
 */
export type EndpointOperation<Declared extends Endpoint> = Omit<
  Operation,
  Exclude<RequestPart, 'headers'> | 'answers'
> & {
  answers: { [Status in keyof Declared['answers']]: string | Answer };
};

/**
 * A route registered from its endpoint (`@sniplink/contracts`): its method, path, request parts and
 * answers' schemas come from there, the rest (name, tag, session, errors, rate limit) from `spec`.
 * `under` is the prefix of the scope it is registered in (`/api/admin`), which its path begins with.
 */
export function endpointRoute<
  const Declared extends Endpoint,
  const Spec extends EndpointOperation<Declared>,
>(declared: Declared, spec: Spec, under = '') {
  if (!declared.path.startsWith(under)) throw new Error(`${declared.path} is not under ${under}`);
  const answers: Answers = {};
  for (const [status, schema] of Object.entries(declared.answers)) {
    const said: string | Answer = spec.answers[status as keyof typeof spec.answers];
    answers[Number(status)] = typeof said === 'string' ? json(said, schema) : said;
  }
  const schema = operation({
    ...spec,
    ...(declared.body ? { body: declared.body } : {}),
    ...(declared.querystring ? { querystring: declared.querystring } : {}),
    ...(declared.params ? { params: declared.params } : {}),
    answers,
  });
  return {
    method: declared.method,
    url: declared.path.slice(under.length),
    schema: schema as FastifySchema & {
      [Part in Extract<keyof Declared, RequestPart>]: Declared[Part];
    } & { [Part in Extract<keyof Spec, 'headers'>]: Spec[Part] },
  };
}

/** What a feature's routes share: their tag, and the session and scope prefix most of them have. */
export interface Feature {
  tag: string;
  session?: Operation['session'];
  under?: string;
}

/**
 * A feature's routes, each registered from its endpoint by the endpoint's name, which is its operationId
 * as well; `spec` says the rest (and may set another session than the feature's).
 */
export function featureRoutes<const Endpoints extends Record<string, Endpoint>>(
  endpoints: Endpoints,
  feature: Feature,
) {
  return <
    const Name extends keyof Endpoints & string,
    const Spec extends Omit<EndpointOperation<Endpoints[Name]>, 'operationId' | 'tag'>,
  >(
    name: Name,
    spec: Spec,
  ) =>
    endpointRoute(
      endpoints[name] as Endpoints[Name],
      {
        operationId: name,
        tag: feature.tag,
        ...(feature.session ? { session: feature.session } : {}),
        ...spec,
      } as Spec & { operationId: Name; tag: string },
      feature.under,
    );
}

/**
 * No scheme: open to anyone; `{}` first: a session is optional and only changes the answer; a key's scope
 * as the alternative to the session where a key may stand in for it.
 */
function security(
  session: Operation['session'],
  apiKey: ApiKeyScope | undefined,
): Array<Record<string, string[]>> {
  if (session === 'required' && apiKey) return [{ [SESSION_SCHEME]: [] }, { [API_KEY_SCHEME]: [apiKey] }];
  if (session === 'required' || session === 'admin') return [{ [SESSION_SCHEME]: [] }];
  if (session === 'optional') return [{}, { [SESSION_SCHEME]: [] }];
  return [];
}

/** A JSON answer. */
export const json = (description: string, schema: z.ZodType, headers?: Record<string, string>): Answer => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers ? { headers } : {}),
});

/** An answer of another media type (an HTML page, a CSV download). */
export const text = (description: string, mediaType: string): Answer => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

/** An answer without a body (a redirect), with the headers that matter, each described. */
export const bodiless = (description: string, headers: Record<string, string>): z.ZodType =>
  z.null().meta({ description, headers: headerSchemas(headers) });

/** Headers as the document states them: each a string, described. */
export const headerSchemas = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, about]) => [name, { type: 'string', description: about }]),
  );

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid; `field` names the part at fault',
  401: 'No live session (or no live API key where a key is accepted)',
  403: 'Refused',
  404: 'Not found, or not yours',
  408: 'The request did not arrive in time',
  409: 'In conflict with what is stored',
  413: 'The body is over 64 KB',
  414: 'The address is too long',
  415: 'The body is not JSON',
  429: 'Too many requests; `Retry-After` says when to try again',
  503: 'Busy, or the database is not reachable; `Retry-After` says when to try again',
};

/**
 * Adds the errors every call of its shape can answer to the route's own, and turns them into answers:
 * `{ code, message, field? }` with the codes of that status. Error bodies are built by the error handler
 * (`errors.ts`) and sent as they are; the schemas say what they hold.
 */
export function declareCommonErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as RouteSchema | undefined;
    const declared = schema?.[DECLARED];
    if (!schema || !declared) return;
    const errors = new Map<number, Set<ErrorCode>>();
    const add = (status: number, ...codes: readonly ErrorCode[]) => {
      const set = errors.get(status) ?? new Set<ErrorCode>();
      for (const code of codes) set.add(code);
      errors.set(status, set);
    };
    for (const [status, codes] of Object.entries(declared.errors ?? {}))
      add(Number(status), ...(codes ?? []));
    const methods = [route.method].flat();
    if (route.url.startsWith('/api/')) add(503, 'SERVICE_UNAVAILABLE');
    if (declared.session === 'required' || declared.session === 'admin') add(401, 'UNAUTHORIZED');
    if (declared.session === 'admin') add(403, 'ADMIN_REQUIRED');
    if (declared.apiKey) {
      add(403, 'INSUFFICIENT_SCOPE');
      add(429, 'RATE_LIMITED');
    }
    if (schema.body || schema.querystring || schema.headers) add(400, 'VALIDATION_FAILED');
    if (methods.some((method) => STATE_CHANGING.has(method))) {
      add(400, 'BAD_REQUEST');
      add(403, 'FORBIDDEN_ORIGIN');
      add(408, 'REQUEST_TIMEOUT');
      add(413, 'PAYLOAD_TOO_LARGE');
      add(415, 'BAD_REQUEST');
      // Bodies still arriving are budgeted per client address (429) and in all (503); a signed-in
      // caller's state changes are counted per user (`write-limits.ts`).
      add(429, 'RATE_LIMITED');
    }
    const response = { ...(schema.response as Answers) };
    for (const [status, codes] of [...errors].sort(([a], [b]) => a - b)) {
      const description = ERROR_DESCRIPTIONS[status] ?? 'Refused';
      const headers = status === 429 || status === 503 ? RETRY_AFTER : undefined;
      response[status] = json(description, errorBodyWith([...codes].sort()), headers);
    }
    route.schema = { ...schema, response };
  });
}

const RETRY_AFTER = { 'Retry-After': 'Seconds to wait before trying again' };

/** The error body (a component of the document), its `code` narrowed to those this answer can hold. */
const errorBodyWith = (codes: ErrorCode[]) =>
  z.intersection(errorBodySchema, z.looseObject({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }));
