import { RateLimitedError } from '@sniplink/domain';
import type pg from 'pg';
import type { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { postgresLimiter } from '../http/rate-limiter';

export interface LoginLimits {
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per account and per client address in PostgreSQL (so every process shares the
 * counts). Once either count reaches its limit, sign-in answers 429 until the window passes, even with
 * the right password: that is what stops a guessing run.
 */
export class LoginThrottle {
  private readonly perAccount: RateLimiterPostgres;
  private readonly perIp: RateLimiterPostgres;

  constructor(pool: pg.Pool, limits: LoginLimits) {
    const durationSeconds = limits.windowSeconds;
    this.perAccount = postgresLimiter(pool, {
      keyPrefix: 'login_account',
      points: limits.perAccount,
      durationSeconds,
    });
    this.perIp = postgresLimiter(pool, { keyPrefix: 'login_ip', points: limits.perIp, durationSeconds });
  }

  async assertAllowed(accountKey: string, ip: string): Promise<void> {
    const [account, address] = await Promise.all([this.perAccount.get(accountKey), this.perIp.get(ip)]);
    const blocked = [
      exhausted(account, this.perAccount.points),
      exhausted(address, this.perIp.points),
    ].filter((ms): ms is number => ms !== null);
    if (blocked.length > 0) {
      throw new RateLimitedError(
        'Too many failed sign-in attempts; please wait and try again',
        Math.ceil(Math.max(...blocked) / 1000),
      );
    }
  }

  async recordFailure(accountKey: string, ip: string): Promise<void> {
    // consume() rejects once the points are gone; the count is what matters here, not the rejection.
    await Promise.all([
      this.perAccount.consume(accountKey).catch(() => {}),
      this.perIp.consume(ip).catch(() => {}),
    ]);
  }

  async recordSuccess(accountKey: string): Promise<void> {
    await this.perAccount.delete(accountKey);
  }
}

/** Milliseconds until the key may try again, or null when it still has attempts left. */
function exhausted(result: RateLimiterRes | null, points: number): number | null {
  return result && result.consumedPoints >= points ? Math.max(result.msBeforeNext, 1000) : null;
}
