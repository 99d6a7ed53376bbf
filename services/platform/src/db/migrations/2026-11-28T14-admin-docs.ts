import { type Kysely, sql } from 'kysely';

/**
 * The admin docs read model: one row per doc ever written, as its stream's last event left it. A deleted
 * doc stays as a tombstone (`deleted`), so that an event delivered again never brings it back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_admin_docs (
      doc_id uuid PRIMARY KEY,
      section text NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      sort_order integer NOT NULL,
      deleted boolean NOT NULL,
      last_updated_by text NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_admin_docs`.execute(db);
}
