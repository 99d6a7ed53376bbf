import pg from 'pg';
import type { CommitHold } from '../../services/platform/src/eventstore/event-store.contract';

/**
 * A deferred trigger runs at COMMIT: for rows whose `column` starts with `held-` it waits on an advisory
 * lock, so a test can keep a writer's transaction open (its position drawn, not yet committed) while later
 * writers commit. The adapter under test runs unchanged.
 */
export async function installCommitHold(
  pool: pg.Pool,
  target: { table: string; column: string },
): Promise<void> {
  const fn = `test_hold_commit_${target.table}`;
  await pool.query(`
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.${target.column} LIKE 'held-%' THEN
        PERFORM pg_advisory_xact_lock_shared(hashtext(NEW.${target.column}));
      END IF;
      RETURN NULL;
    END $$`);
  await pool.query(`
    CREATE CONSTRAINT TRIGGER ${fn} AFTER INSERT ON ${target.table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
}

/** Takes the lock that rows named `name` wait for at commit; release lets them commit. */
export async function holdCommitsOf(connectionString: string, name: string): Promise<CommitHold> {
  const holder = new pg.Client({ connectionString });
  await holder.connect();
  await holder.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  return {
    untilBlocked: async () => {
      for (let i = 0; i < 500; i++) {
        const { rows } = await holder.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if ((rows[0]?.waiting ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('The held write never reached its commit');
    },
    release: async () => {
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      await holder.end();
    },
  };
}
