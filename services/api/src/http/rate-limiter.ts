import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';

/**
 * A counter in the shared `rate_limits` table (created by a migration), so every process sees the same
 * counts. Expired rows are overwritten on the next use; no timer of the library's own runs.
 */
export function postgresLimiter(
  pool: pg.Pool,
  limit: { keyPrefix: string; points: number; durationSeconds: number },
): RateLimiterPostgres {
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
