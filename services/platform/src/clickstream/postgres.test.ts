import { holdCommitsOf, installCommitHold } from '../../../../test/support/commit-hold';
import { createTestDatabase } from '../../../../test/support/database';
import { PgNotifications } from '../db/notifications';
import { clickStreamContract } from './click-stream.contract';
import { PostgresClickStream } from './postgres';

clickStreamContract('postgres', async () => {
  const database = await createTestDatabase();
  const notifications = new PgNotifications(database.connectionString);
  await installCommitHold(database.pool, { table: 'cs_chunks', column: 'messages::jsonb->0->>0' }); // the first key
  return {
    stream: new PostgresClickStream({
      pool: database.pool,
      notifications,
      partitionCount: 4,
      idlePollMs: 200,
    }),
    holdCommits: (key) => holdCommitsOf(database.connectionString, key),
    cleanup: async () => {
      await notifications.close();
      await database.drop();
    },
  };
});
