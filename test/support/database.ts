import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, type Db, withDatabaseName } from '../../services/platform/src/db/database';
import { migrateToLatest } from '../../services/platform/src/db/migrate';

export interface TestDatabase extends Db {
  readonly name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file, on the run's server. */
export async function createTestDatabase(
  options: { poolSize?: number; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `sniplink_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const connection = connectDatabase(withDatabaseName(adminUrl, name), { poolSize: options.poolSize ?? 60 });
  if (options.migrate !== false) await migrateToLatest(connection.db);
  return {
    ...connection,
    name,
    drop: async () => {
      await connection.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
