import { type Kysely, sql } from 'kysely';

/**
 * The version of its data's shape each event was stored at (see contracts/src/events/registry.ts): read
 * before the data is interpreted, so a column rather than a key in `metadata`. Every event stored before
 * is version 1; a constant default adds the column without rewriting the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE es_events ADD COLUMN schema_version smallint NOT NULL DEFAULT 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE es_events DROP COLUMN schema_version`.execute(db);
}
