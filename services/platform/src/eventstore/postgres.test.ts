import { holdCommitsOf, installCommitHold } from '../../../../test/support/commit-hold';
import { createTestDatabase } from '../../../../test/support/database';
import { PgNotifications } from '../db/notifications';
import { eventStoreContract } from './event-store.contract';
import { PostgresEventStore } from './postgres';

eventStoreContract('postgres', async () => {
  const database = await createTestDatabase();
  const notifications = new PgNotifications(database.connectionString);
  await installCommitHold(database.pool, { table: 'es_events', column: 'stream_id' });
  return {
    store: new PostgresEventStore({ pool: database.pool, notifications }),
    holdCommits: (streamId) => holdCommitsOf(database.connectionString, streamId),
    cleanup: async () => {
      await notifications.close();
      await database.drop();
    },
  };
});
