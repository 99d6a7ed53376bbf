/**
 * `npm run user:erase -- <email>`: erases an account for good (crypto-shredding, docs/architecture.md).
 * Asks nothing: the operator's command is the confirmation.
 */
import { runAccountCli } from './run-cli';

runAccountCli({
  usage: 'npm run user:erase -- <email>',
  parse: (extra) => (extra.length === 0 ? {} : null),
  run: async (accounts, { userId, email }) => {
    await accounts.erase(userId);
    return (
      `${email} is erased (user ${userId}): personal data dropped from the read models, address released, ` +
      'sessions and credentials deleted, key deleted'
    );
  },
});
