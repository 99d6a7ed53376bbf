import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export interface Db {
  readonly db: Kysely<Database>;
  readonly pool: pg.Pool;
  readonly connectionString: string;
  close(): Promise<void>;
}

/** One pool per process; Kysely and the adapters' hand-written SQL share it. */
export function connectDatabase(connectionString: string, options: { poolSize?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 20,
    idleTimeoutMillis: 30_000,
    // A server that does not answer must fail a request, not hang it (and everything queued behind it).
    connectionTimeoutMillis: 10_000,
    application_name: 'sniplink',
  });
  // An idle client that loses its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});
  // A checked-out client whose server goes away (a kill -9 of the embedded server) emits 'error' besides
  // failing its query; with no listener (Kysely's connections have none) that is thrown out of the socket
  // handler and ends the process. Its holder learns of the loss from the failing query, and the pool
  // drops the client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closed: Promise<void> | undefined;
  return {
    db,
    pool,
    connectionString,
    close: () => {
      // Kysely ends the pool only once it has run a query itself: a process that stops before that (a
      // stop during start-up) would keep the connections the adapters opened, and with them the process.
      closed ??= db.destroy().then(() => (pool.ending ? undefined : pool.end()));
      return closed;
    },
  };
}

/** A URL for another database on the same server (used for test databases and benches). */
export function withDatabaseName(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
