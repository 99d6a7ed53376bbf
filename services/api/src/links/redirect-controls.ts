import { appSecret, type Db } from '@sniplink/platform';
import { hasClickLeftIn, type LinkControlsDeps, takeClickFrom } from '@sniplink/redirect';
import { verifyPassword } from '../accounts/passwords';
import { postgresRateLimiters } from '../http/rate-limiter';
import { passwordGuesses } from './password-guesses';

/**
 * What a redirecting process's link controls run on, from its database: the atomic click take, the
 * password check (argon2, as accounts'), the wrong-password limit shared by every process, and the
 * secret every process signs the password cookie with (made once, kept in `app_secrets`).
 */
export async function linkRedirectControls(database: Db): Promise<Omit<LinkControlsDeps, 'secureCookie'>> {
  return {
    takeClick: takeClickFrom(database.db),
    hasClickLeft: hasClickLeftIn(database.db),
    verifyPassword,
    guesses: passwordGuesses({ limiters: postgresRateLimiters({ pool: database.pool }) }),
    cookieSecret: await appSecret(database.db, 'link-password-cookie'),
  };
}
