import type { ApiKeyScope } from '@sniplink/contracts';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '@sniplink/domain';
import { enterChannel, identifyActor } from '@sniplink/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whose key made the call, and what it may do. */
export interface KeyHolder {
  userId: string;
  keyId: string;
  scopes: readonly ApiKeyScope[];
}

/** Where a key's calls stand against its limit, as the RateLimit-* headers tell the caller. */
export interface KeyAllowance {
  limit: number;
  remaining: number;
  /** Seconds until the window starts again. */
  resetSeconds: number;
  /** The call is over the limit (429). */
  refused: boolean;
}

/** The port the bearer check takes: the live keys and their counters, shared by every process. */
export interface BearerKeys {
  /** The holder of a live key (not revoked, not expired, its account neither suspended nor erased), or null. */
  resolve(secret: string): Promise<KeyHolder | null>;
  /** Counts one call of the key. */
  count(keyId: string): Promise<KeyAllowance>;
}

const BEARER = /^Bearer(?:\s+(.*))?$/i;

/**
 * The secret of an `Authorization: Bearer …` header ('' when the header names no token), or undefined when
 * the request carries none. Such a request is a script's: its cookies never authenticate it, and the origin
 * check (a defence of cookies) does not apply, since a browser never sends the header to another site.
 */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = BEARER.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

export const hasBearer = (request: FastifyRequest): boolean => bearerTokenOf(request) !== undefined;

/**
 * A bearer call of a route that accepts keys with `scope`: an unknown, revoked or expired key is a 401; the
 * call counts against the key's limit (RateLimit-* headers on every answer, 429 past it); a key without the
 * scope is a 403 INSUFFICIENT_SCOPE. The events the call appends are the key owner's, through the `api`
 * channel.
 */
export async function authenticateKey(
  request: FastifyRequest,
  reply: FastifyReply,
  keys: BearerKeys,
  scope: ApiKeyScope,
): Promise<KeyHolder> {
  const secret = bearerTokenOf(request);
  const holder = secret ? await keys.resolve(secret) : null;
  if (!holder) throw new UnauthorizedError();
  const allowance = await keys.count(holder.keyId);
  reply
    .header('ratelimit-limit', String(allowance.limit))
    .header('ratelimit-remaining', String(allowance.remaining))
    .header('ratelimit-reset', String(allowance.resetSeconds));
  if (allowance.refused) {
    throw new RateLimitedError(
      `Too many requests: this API key may make ${allowance.limit} a minute; try again later`,
      allowance.resetSeconds,
    );
  }
  if (!holder.scopes.includes(scope)) {
    throw new ForbiddenError('INSUFFICIENT_SCOPE', `This API key lacks the ${scope} scope`);
  }
  identifyActor(holder.userId);
  enterChannel('api');
  return holder;
}
