/**
 * `npm run user:suspend -- <email> [reason...]`: suspends an account. Its sessions end at once and it
 * cannot sign in (403 ACCOUNT_SUSPENDED) until unsuspended; its plan is kept.
 */
import { runAccountCli } from './run-cli';

runAccountCli({
  usage: 'npm run user:suspend -- <email> [reason...]',
  parse: (words) => ({ reason: words.join(' ').trim() || null }),
  run: async (accounts, { userId, email }, { reason }) => {
    await accounts.suspend(userId, reason);
    return `${email} is now suspended`;
  },
});
