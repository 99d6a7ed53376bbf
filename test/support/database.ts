import { randomBytes } from 'node:crypto';
import { connectDatabase, type Db, PgNotifications, withDatabaseName } from '@sniplink/platform';
import { inject } from 'vitest';
import { adminQuery } from './admin-query';
import { madeOnce } from './lifecycle';

export interface TestDatabase extends Db {
  readonly name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own for one test file, on the run's server: a copy of the run's
 * migrated template. `migrate: false`: an empty one, for what migrates it itself.
 */
export async function createTestDatabase(
  options: { poolSize?: number; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `sniplink_t_${randomBytes(6).toString('hex')}`;
  const template = options.migrate === false ? '' : ` TEMPLATE ${inject('templateDatabase')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}${template}`);
  const connection = connectDatabase(withDatabaseName(adminUrl, name), { poolSize: options.poolSize ?? 60 });
  return {
    ...connection,
    name,
    drop: async () => {
      await connection.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

/**
 * WITH (FORCE) ends connections a test leaked, but on a server where the test role is not a superuser it is
 * refused when a backend it may not signal (an autovacuum worker) is on the database. Then a plain DROP,
 * which PostgreSQL itself clears autovacuum for, is retried while the closed pool's backends exit.
 */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  try {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A migrated database of its own and a LISTEN connection to it, for a test file or a describe block,
 * made in its beforeAll, closed and dropped in its afterAll (see `madeOnce`).
 */
export const testDatabaseWithNotifications = () =>
  madeOnce(
    async () => {
      const database = await createTestDatabase();
      return {
        database,
        notifications: new PgNotifications({ connectionString: database.connectionString }),
      };
    },
    async ({ database, notifications }) => {
      await notifications.close();
      await database.drop();
    },
  );

/** Connections the server has open to this test database for `applicationName`. */
export async function openConnections(database: TestDatabase, applicationName: string): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [applicationName],
  );
  return rows[0]?.n ?? 0;
}

/** openConnections once none are left, or after five seconds: a closed client's backend exits a moment later. */
export async function openConnectionsSettled(
  database: TestDatabase,
  applicationName: string,
): Promise<number> {
  for (let i = 0; i < 50 && (await openConnections(database, applicationName)) > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return openConnections(database, applicationName);
}
