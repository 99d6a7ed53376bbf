import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type RateLimiters, take } from '../http/rate-limiter';

export interface SignupLimits {
  /** Sign-up attempts one client address may make per window. */
  perIp: number;
  windowSeconds: number;
}

/**
 * Sign-ups per client address, counted in PostgreSQL like the other limits (every process shares the
 * count). Counted before the password is hashed: the hash (19 MiB, 2 passes) is what a flood of sign-ups
 * spends the server's CPU on. Every well-formed attempt counts, also one answered 409 EMAIL_TAKEN: that
 * answer tells whether an address has an account, so it must not be had in bulk.
 */
export class SignupThrottle {
  private readonly perIp: RateLimiterAbstract;

  constructor(deps: { limiters: RateLimiters }, limits: SignupLimits) {
    this.perIp = deps.limiters({
      keyPrefix: 'signup_ip',
      points: limits.perIp,
      durationSeconds: limits.windowSeconds,
    });
  }

  /** Counts one attempt from the address; 429 RATE_LIMITED (with the seconds to wait) past the limit. */
  async count(ip: string): Promise<void> {
    await take(this.perIp, ip, 'Too many sign-ups from this address; please try again later');
  }
}
