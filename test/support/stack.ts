import { eventRegistry } from '@sniplink/contracts';
import { createLogger, type Logger, PgNotifications, PostgresEventStore } from '@sniplink/platform';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestStack {
  database: TestDatabase;
  notifications: PgNotifications;
  eventStore: PostgresEventStore;
  log: Logger;
  cleanup(): Promise<void>;
}

/** A fresh database with the event store on it: what projection and service tests stand on. */
export async function createTestStack(): Promise<TestStack> {
  const database = await createTestDatabase();
  const notifications = new PgNotifications({ connectionString: database.connectionString });
  const eventStore = new PostgresEventStore({ pool: database.pool, notifications, registry: eventRegistry });
  return {
    database,
    notifications,
    eventStore,
    log: createLogger('silent'),
    cleanup: async () => {
      await notifications.close();
      await database.drop();
    },
  };
}
