import { setTimeout as sleep } from 'node:timers/promises';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { type RateLimiters, take } from '../http/rate-limiter';

export interface LoginLimits {
  /**
   * Failed sign-ins on one account from one client address per window before that address gets 429 for
   * that account; also the failures on an account (from any address) after which its sign-ins slow down.
   */
  perAccount: number;
  /** Failed sign-ins from one client address (on any accounts) per window before it gets 429. */
  perIp: number;
  windowSeconds: number;
}

/** The first slowed-down sign-in waits this long; each further failure doubles it, up to the cap. */
export const SLOWDOWN_FIRST_MS = 500;
export const SLOWDOWN_MAX_MS = 3_000;
/** The account-wide count is a counter only: it never refuses, it slows down. */
const COUNT_ONLY = 1_000_000;

/** What a started sign-in holds: how to settle its counts once the password has been checked. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

/**
 * Throttles password sign-ins in the way OWASP recommends, so that someone else's failures never lock
 * the owner out: a hard limit (429) per (account, address) pair and per address, and per account,
 * across addresses, only a slowdown: a growing delay before every answer on that account, the right
 * password included, capped at SLOWDOWN_MAX_MS. The right password from an address without failures on
 * the account therefore always signs in. Counted in PostgreSQL, so every process shares the counts.
 *
 * Every attempt is counted before the password is checked (an atomic upsert), and given back when it
 * succeeds: counting only the answers would let parallel guesses all pass a check made before any of
 * them had failed.
 */
export class LoginThrottle {
  private readonly perPair: RateLimiterAbstract;
  private readonly perIp: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;
  private readonly slowdownAfter: number;

  constructor(deps: { limiters: RateLimiters }, limits: LoginLimits) {
    const durationSeconds = limits.windowSeconds;
    this.perPair = deps.limiters({
      keyPrefix: 'login_pair',
      points: limits.perAccount,
      durationSeconds,
    });
    this.perIp = deps.limiters({ keyPrefix: 'login_ip', points: limits.perIp, durationSeconds });
    this.perAccount = deps.limiters({
      keyPrefix: 'login_account',
      points: COUNT_ONLY,
      durationSeconds,
    });
    this.slowdownAfter = limits.perAccount;
  }

  /**
   * Counts the attempt (429 RATE_LIMITED once the address, or the address on this account, has used its
   * attempts), then waits as long as the account's failures ask. Left unsettled, the attempt counts as
   * a failure.
   */
  async begin(accountKey: string, ip: string): Promise<LoginAttempt> {
    const message = 'Too many failed sign-in attempts; please wait and try again';
    const pairKey = `${accountKey}|${ip}`;
    await take(this.perIp, ip, message);
    await take(this.perPair, pairKey, message);
    // Past COUNT_ONLY consume() rejects, still with the count: that only means the longest delay.
    const account = await this.perAccount
      .consume(accountKey)
      .catch((rejection: unknown) =>
        rejection instanceof RateLimiterRes ? rejection : Promise.reject(rejection),
      );
    await sleep(slowdownMs(account.consumedPoints - 1, this.slowdownAfter));
    return {
      succeeded: async () => {
        // This address's failures on the account were the owner's own typing: forgiven on both counts.
        const pair = await this.perPair.get(pairKey);
        await Promise.all([
          this.perIp.reward(ip),
          this.perPair.delete(pairKey),
          this.perAccount.reward(accountKey, Math.max(1, pair?.consumedPoints ?? 1)),
        ]);
      },
    };
  }
}

/** The delay before answering a sign-in on an account that has had `failures` failures in the window. */
export function slowdownMs(failures: number, slowdownAfter: number): number {
  if (failures < slowdownAfter) return 0;
  return Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_FIRST_MS * 2 ** (failures - slowdownAfter));
}
