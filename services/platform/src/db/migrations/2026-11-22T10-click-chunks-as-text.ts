import { type Kysely, sql } from 'kysely';

/**
 * A chunk's messages as the JSON text the publisher wrote instead of jsonb: nothing reads inside them
 * on the server, and jsonb cost PostgreSQL a parse of every click on publish and a print on every read
 * (about a third of its CPU under full redirect load).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cs_chunks ALTER COLUMN messages TYPE text USING messages::text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cs_chunks ALTER COLUMN messages TYPE jsonb USING messages::jsonb`.execute(db);
}
