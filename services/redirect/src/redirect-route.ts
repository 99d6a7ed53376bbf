import { randomFillSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { ClickBuffer } from './click-buffer';
import { describeClick } from './click-description';
import type { LinkCache, RedirectTarget } from './link-cache';

export interface RedirectDeps {
  cache: LinkCache;
  clicks: ClickBuffer;
  /** Answers a code no live link has: the web app's not-found page, status 404. */
  notFound(reply: FastifyReply): FastifyReply;
  /** Answers an unclaimed demo link past its lifetime: a short page, status 410. */
  gone(reply: FastifyReply): FastifyReply;
}

/** Longer than any code we issue; refuse before touching the cache. */
const MAX_CODE_LENGTH = 64;

/**
 * `GET /s/:code` -> 302 to the target (410 for an expired demo link). Registered on the root of the app,
 * outside the API's hooks (cookies, sessions, origin checks): a hot link costs one map look-up and one
 * buffered click.
 */
export function registerRedirect(app: FastifyInstance, deps: RedirectDeps): void {
  app.get<{ Params: { code: string } }>('/s/:code', (request, reply) => {
    const code = request.params.code;
    // U+0000 is in no code, and PostgreSQL text cannot hold it: the look-up would fail as a 500.
    if (code.length === 0 || code.length > MAX_CODE_LENGTH || code.includes('\u0000'))
      return deps.notFound(reply);
    const found = deps.cache.resolve(code);
    if (found === null) return deps.notFound(reply);
    if (!(found instanceof Promise)) return redirect(found);
    return found.then((target) => (target ? redirect(target) : deps.notFound(reply)));

    function redirect(target: RedirectTarget) {
      // An expired demo link is no click: the visitor lands on a page, not on the target.
      if (target.expiresAt !== undefined && target.expiresAt <= Date.now()) return deps.gone(reply);
      deps.clicks.push(
        describeClick({
          id: clickId(),
          linkId: target.linkId,
          code,
          at: new Date(),
          userAgent: request.headers['user-agent'],
          referer: request.headers.referer,
          clientIp: request.ip,
        }),
      );
      return reply
        .code(302)
        .header('location', target.target)
        .header('cache-control', 'private, no-store')
        .send();
    }
  });
}

/**
 * Click ids (UUID v7) from a pool of random bytes filled 4 KiB at a time: asking the system for 16 bytes
 * per redirect showed up in the profile of the hot path (about 6 % of the process's CPU).
 */
const randomPool = new Uint8Array(16 * 256);
let poolOffset = randomPool.length;
export function clickId(): string {
  if (poolOffset >= randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  const random = randomPool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  return uuidv7({ random });
}
