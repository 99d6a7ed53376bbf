import type { PasswordGuesses } from '@sniplink/redirect';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiters } from '../http/rate-limiter';

/** Wrong passwords one address may try on one link per window; a right one is never refused before this. */
export const WRONG_PASSWORDS_PER_WINDOW = 5;
export const WRONG_PASSWORD_WINDOW_SECONDS = 15 * 60;

/**
 * Wrong link passwords per address and link, counted in PostgreSQL like the other limits, so every
 * redirect process shares the count: after 5 in 15 minutes, every try is a 429 until the window ends. Only wrong
 * guesses count: a visitor who knows the password is never slowed down by their own visits.
 */
export function passwordGuesses(deps: { limiters: RateLimiters }): PasswordGuesses {
  const limiter = deps.limiters({
    keyPrefix: 'link_password_guesses',
    points: WRONG_PASSWORDS_PER_WINDOW,
    durationSeconds: WRONG_PASSWORD_WINDOW_SECONDS,
  });
  const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    async blockedFor(key) {
      const res = await limiter.get(key);
      return res && res.consumedPoints >= WRONG_PASSWORDS_PER_WINDOW ? seconds(res) : 0;
    },
    async wrongGuess(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return seconds(rejection);
      }
    },
  };
}
