import { defineConfig } from 'vitest/config';
import base, { servers } from './vitest.config';

/**
 * The tests whose outcome can depend on which PostgreSQL server runs them. CI runs the whole suite on the
 * embedded server (the release `npm start` runs), then these a second time on the oldest server Sniplink
 * supports (PostgreSQL 15, through DATABASE_URL). What can differ between servers is the SQL we write and
 * how the server behaves under it (locks, LISTEN/NOTIFY, when a commit becomes visible, a cut
 * connection), so these are: the PostgreSQL adapters' contract suites (event store, click stream; the
 * in-memory, KurrentDB and Kafka ones use no PostgreSQL), the database helpers, the migrations (each of
 * these files migrates a database of its own), the read models' SQL (projections/, the only place that
 * writes it) and their rebuild, the several processes on one database (sign-ups, links and purchases
 * through two API processes: the sessions', idempotency keys' and payments' SQL), the keyring's erasure
 * checked against every table, the urgent-ticket mail claimed by one of two processes, backup and
 * restore (COPY, snapshots, sequences; a backup of one server restored on another), and an upgrade from
 * the previous release's database (its PostgreSQL 15 dump loaded, migrated and read). The HTTP
 * suites run the same SQL through these modules, so a second run of them would test the server no
 * further; the embedded server's own tests mean something only on it.
 * `DATABASE_URL=… npx vitest run -c vitest.database-servers.config.ts` runs them.
 */
const SERVER_DEPENDENT = [
  'services/platform/src/eventstore/postgres.test.ts',
  'services/platform/src/clickstream/postgres.test.ts',
  'services/platform/src/db/*.test.ts',
  'projections/src/**/*.test.ts',
  'services/standalone/src/cli/rebuild-projections.test.ts',
  'services/standalone/src/migrate-concurrently.test.ts',
  'services/standalone/src/multi-process.test.ts',
  'services/standalone/src/cli/user-erase.test.ts',
  'services/api/src/support/urgent-digest.http.test.ts',
  'services/standalone/src/backup/*.test.ts',
  'test/upgrade.test.ts',
];

// One file at a time, without the two lanes of the whole suite: these are few, and most of them start
// processes or read the server's own timing.
export default defineConfig({
  ...base,
  test: { ...base.test, ...servers, projects: undefined, include: SERVER_DEPENDENT, maxWorkers: 1 },
});
