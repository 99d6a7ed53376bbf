/** `npm run user:unsuspend -- <email>`: lifts a suspension; the account has the plan it had before. */
import { runAccountCli } from './run-cli';

runAccountCli({
  usage: 'npm run user:unsuspend -- <email>',
  parse: (extra) => (extra.length === 0 ? {} : null),
  run: async (accounts, { userId, email }) => {
    await accounts.unsuspend(userId);
    return `${email} is no longer suspended`;
  },
});
