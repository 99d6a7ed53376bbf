import { RateLimitedError } from '@sniplink/domain';
import type pg from 'pg';
import { type RateLimiterAbstract, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export interface Limit {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/** The port the throttles take: a counter per limit that every process shares. */
export type RateLimiters = (limit: Limit) => RateLimiterAbstract;

/**
 * Counters in the shared `rate_limits` table (created by a migration), so every process sees the same
 * counts. Expired rows are overwritten on the next use; no timer of the library's own runs.
 */
export function postgresRateLimiters(deps: { pool: pg.Pool }): RateLimiters {
  return (limit) => postgresLimiter(deps.pool, limit);
}

function postgresLimiter(pool: pg.Pool, limit: Limit): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: limit.keyPrefix,
    points: limit.points,
    duration: limit.durationSeconds,
  });
}

/**
 * Takes one point from the key, or refuses with 429 RATE_LIMITED and the seconds until the window ends.
 * consume() is one atomic upsert, so concurrent calls cannot both take the last point.
 */
export async function take(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    // A RateLimiterRes means "no points left"; anything else is the store failing, not the caller.
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw new RateLimitedError(message, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
  }
}
