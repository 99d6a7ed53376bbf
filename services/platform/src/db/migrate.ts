import { type Kysely, type Migration, Migrator } from 'kysely';
import { MigrationError } from '../startup';
import type { Database } from './schema';

/**
 * Brings the schema up to date with `migrations` (the platform's and every feature's, as the composition
 * root lists them). Safe to call from several processes at once: Kysely's PostgreSQL adapter holds a
 * session advisory lock (`pg_advisory_lock`) around the whole run, which is one transaction, so a second
 * process waits for the first to commit and then finds nothing left to apply
 * (services/standalone/src/migrate-concurrently.test.ts fails if a Kysely upgrade drops that lock).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  migrations: Record<string, Migration>,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    // No migration named as failed: none ran, the database was not reached (its error says why).
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw failed ? new MigrationError(failed, error) : error;
  }
  return (results ?? []).map((result) => result.migrationName);
}
