import { type Kysely, sql } from 'kysely';

/** The click log's retention deletes chunks by age: an index on it finds the old ones without a scan. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX cs_chunks_published_at ON cs_chunks (published_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX cs_chunks_published_at`.execute(db);
}
