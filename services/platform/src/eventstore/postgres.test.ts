import pg from 'pg';
import { createTestDatabase } from '../../../../test/support/database';
import { PgNotifications } from '../db/notifications';
import { type CommitHold, eventStoreContract } from './event-store.contract';
import { PostgresEventStore } from './postgres';

eventStoreContract('postgres', async () => {
  const database = await createTestDatabase();
  const notifications = new PgNotifications(database.connectionString);
  await installCommitHold(database.pool);
  return {
    store: new PostgresEventStore({ pool: database.pool, notifications }),
    holdCommits: (streamId) => holdCommitsOf(database.connectionString, streamId),
    cleanup: async () => {
      await notifications.close();
      await database.drop();
    },
  };
});

/**
 * A deferred trigger runs at COMMIT: for streams named `held-*` it waits on an advisory lock, so a test can
 * keep an append's transaction open (position drawn, not yet committed) while later appends commit.
 */
async function installCommitHold(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE FUNCTION test_hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.stream_id LIKE 'held-%' THEN PERFORM pg_advisory_xact_lock_shared(hashtext(NEW.stream_id)); END IF;
      RETURN NULL;
    END $$`);
  await pool.query(`
    CREATE CONSTRAINT TRIGGER test_hold_commit AFTER INSERT ON es_events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_hold_commit()`);
}

async function holdCommitsOf(connectionString: string, streamId: string): Promise<CommitHold> {
  const holder = new pg.Client({ connectionString });
  await holder.connect();
  await holder.query('SELECT pg_advisory_lock(hashtext($1))', [streamId]);
  return {
    untilBlocked: async () => {
      for (let i = 0; i < 500; i++) {
        const { rows } = await holder.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if ((rows[0]?.waiting ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('The held append never reached its commit');
    },
    release: async () => {
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [streamId]);
      await holder.end();
    },
  };
}
