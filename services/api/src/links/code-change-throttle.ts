import { RateLimitedError } from '@sniplink/domain';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiters } from '../http/rate-limiter';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Code changes per account per 24 h (`CODE_CHANGES_PER_DAY`), counted in PostgreSQL like the other
 * limits, so every process shares the count. A clicked code stays its account's for good: without a
 * limit one link could take any number of codes by changing its code again and again.
 */
export class CodeChangeThrottle {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    deps: { limiters: RateLimiters },
    private readonly perDay: number,
  ) {
    this.limiter = deps.limiters({
      keyPrefix: 'code_changes',
      points: perDay,
      durationSeconds: DAY_SECONDS,
    });
  }

  /**
   * Counts one change to a new code, then makes it. A refused or failed change (a taken code, say) gives
   * the count back, so only codes a link really moved to use up the allowance.
   */
  async count<T>(ownerId: string, change: () => Promise<T>): Promise<T> {
    try {
      // consume() is one atomic upsert: concurrent changes cannot both take the last one.
      await this.limiter.consume(ownerId);
    } catch (rejection) {
      // A RateLimiterRes means "none left"; anything else is the store failing, not the caller.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new RateLimitedError(
        `Short codes can be changed ${this.perDay} times a day; please try again in ${inWords(seconds)}`,
        seconds,
      );
    }
    try {
      return await change();
    } catch (error) {
      await this.limiter.reward(ownerId);
      throw error;
    }
  }
}

/** "12 minutes", "3 hours": how long to wait, as the message says it. */
function inWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}
