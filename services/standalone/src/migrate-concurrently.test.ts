import { connectDatabase, type Db, migrateToLatest } from '@sniplink/platform';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { type Kysely, type Migration, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations as appMigrations } from './features';

/**
 * Migrations that record each time they run, in a table the first creates. Each sleeps so that a second
 * process arriving while the first migrates finds it mid-way rather than already done.
 */
const probes: Record<string, Migration> = {
  '9999-01-probe-runs': {
    up: async (db: Kysely<unknown>) => {
      await sql`CREATE TABLE probe_runs (name text NOT NULL, backend integer NOT NULL)`.execute(db);
    },
  },
  ...Object.fromEntries(
    ['9999-02-probe', '9999-03-probe', '9999-04-probe'].map((name) => [
      name,
      {
        up: async (db: Kysely<unknown>) => {
          await sql`SELECT pg_sleep(0.2)`.execute(db);
          await sql`INSERT INTO probe_runs VALUES (${name}, pg_backend_pid())`.execute(db);
        },
      },
    ]),
  ),
};
/** Every migration the app runs at start, then the probes. */
const migrations = { ...appMigrations, ...probes };

describe('migrateToLatest from two processes at once', () => {
  let database: TestDatabase;
  let other: Db;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    // A pool of its own: its sessions are another process's as far as the server can tell.
    other = connectDatabase(database.connectionString, { poolSize: 2 });
  });
  afterAll(async () => {
    await other?.close();
    await database?.drop();
  });

  it('applies each migration once: one process migrates, the other waits and finds nothing left', async () => {
    const [first, second] = await Promise.all([
      migrateToLatest(database.db, migrations),
      migrateToLatest(other.db, migrations),
    ]);

    const names = Object.keys(migrations).sort();
    // Every migration was applied by exactly one of the two: the platform's DDL would fail a second time.
    expect([...first, ...second].sort()).toEqual(names);
    expect([first.length, second.length].sort((a, b) => a - b)).toEqual([0, names.length]);
    const { rows: recorded } = await database.pool.query<{ name: string }>(
      'SELECT name FROM kysely_migration ORDER BY name',
    );
    expect(recorded.map((row) => row.name)).toEqual(names);
    const { rows: runs } = await database.pool.query<{ name: string; backends: number }>(
      'SELECT name, count(DISTINCT backend)::int AS backends, count(*)::int AS runs FROM probe_runs GROUP BY name ORDER BY name',
    );
    expect(runs).toEqual(
      ['9999-02-probe', '9999-03-probe', '9999-04-probe'].map((name) => ({ name, backends: 1, runs: 1 })),
    );
  });

  it('is a no-op on a database already up to date', async () => {
    expect(await migrateToLatest(other.db, migrations)).toEqual([]);
  });
});
