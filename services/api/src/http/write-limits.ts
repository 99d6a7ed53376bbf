import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { sessionOf } from '../accounts/current-session';
import { type RateLimiters, take } from './rate-limiter';
import { type Declaration, declarationOf, STATE_CHANGING } from './route-schema';

/** At most `requests` calls per user in any window of `minutes` (a fixed window, counted in PostgreSQL). */
export interface WriteLimit {
  requests: number;
  minutes: number;
}

/**
 * The limit of a signed-in state change that declares none: two a second for a minute is more than a
 * person clicking ever sends, and it stops a script from filling the event log.
 */
export const DEFAULT_WRITE_LIMIT: WriteLimit = { requests: 120, minutes: 1 };

export interface WriteLimitsDeps {
  limiters: RateLimiters;
  /** WRITE_LIMIT_SCALE: every limit's requests multiplied by it (at least one); default 1. */
  scale?: number;
}

/**
 * Every signed-in state change (POST, PUT, PATCH or DELETE whose `operation` asks for a session or an
 * admin's) is counted per user, once, here: the route's declared `rateLimit`, else the default. Past it,
 * 429 RATE_LIMITED with Retry-After, before the body is validated or anything is stored. The count runs
 * after the route's own session check (the admin gate and the declared session check), so a signed-out caller still
 * gets 401 and a non-admin 403, and counts nothing. The counters are the shared `rate_limits` table: every
 * process sees the same counts. The limit is stated in the OpenAPI document (`x-rate-limit` and the
 * description). Without `deps` (a process without signed-in routes) a signed-in write route is refused at
 * start-up rather than served without its limit.
 */
export function limitSignedInWrites(app: FastifyInstance, deps: WriteLimitsDeps | undefined): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const declared = declarationOf(route.schema);
    if (!declared || !isSignedInWrite(route, declared)) return;
    if (!deps) throw new Error(`${route.url} is a signed-in write route, but no write limits are given`);
    const limit = scaled(declared.rateLimit ?? DEFAULT_WRITE_LIMIT, deps.scale ?? 1);
    route.schema = documented(route.schema, limit);
    const counting = countPerUser(route, limit, deps);
    route.preValidation = [...[route.preValidation ?? []].flat(), counting];
  });
}

const isSignedInWrite = (route: RouteOptions, declared: Declaration) =>
  (declared.session === 'required' || declared.session === 'admin') &&
  [route.method].flat().some((method) => STATE_CHANGING.has(method));

const scaled = (limit: WriteLimit, scale: number): WriteLimit => ({
  requests: Math.max(1, Math.round(limit.requests * scale)),
  minutes: limit.minutes,
});

function countPerUser(route: RouteOptions, limit: WriteLimit, deps: WriteLimitsDeps) {
  const method = [route.method].flat().join(',');
  const limiter = deps.limiters({
    keyPrefix: `write:${method} ${route.url}`,
    points: limit.requests,
    durationSeconds: limit.minutes * 60,
  });
  const message = `Too many requests: at most ${inWords(limit)} here; try again later`;
  return async (request: FastifyRequest): Promise<void> => {
    const { userId } = sessionOf(request);
    await take(limiter, userId, message);
  };
}

const inWords = ({ requests, minutes }: WriteLimit) =>
  `${requests} per ${minutes === 1 ? 'minute' : `${minutes} minutes`}`;

/** The route's schema with its limit in the description and as `x-rate-limit`, for the document. */
function documented(schema: RouteOptions['schema'], limit: WriteLimit): RouteOptions['schema'] {
  const said = `Rate limit: ${inWords(limit)} per user, then 429 RATE_LIMITED with Retry-After.`;
  const description = schema?.description ? `${schema.description} ${said}` : said;
  const xRateLimit = { requests: limit.requests, windowSeconds: limit.minutes * 60, per: 'user' };
  return { ...schema, description, 'x-rate-limit': xRateLimit } as RouteOptions['schema'];
}
