/**
 * `npm run user:admin -- <email> [--revoke]`: makes an account an admin, or removes its admin flag, as the
 * operator (`AdminGranted` / `AdminRevoked` with `by: operator`). The last admin cannot be removed: grant
 * another first (exit 1 with the reason).
 */
import { runAccountCli } from './run-cli';

runAccountCli({
  usage: 'npm run user:admin -- <email> [--revoke]',
  parse: (words) => {
    if (words.length === 0) return { isAdmin: true };
    return words.length === 1 && words[0] === '--revoke' ? { isAdmin: false } : null;
  },
  run: async (accounts, { userId, email }, { isAdmin }) => {
    await accounts.admins.set(userId, isAdmin, 'operator');
    return isAdmin ? `${email} is now an admin` : `${email} is no longer an admin`;
  },
});
