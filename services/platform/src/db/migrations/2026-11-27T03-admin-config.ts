import { type Kysely, sql } from 'kysely';

/**
 * The config entries read model: one row per key ever set, as its stream's last event left it.
 * A deleted entry stays as a tombstone (`deleted`), so that an event delivered again never brings it back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_admin_config (
      key text PRIMARY KEY,
      value text NOT NULL,
      description text,
      deleted boolean NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_admin_config`.execute(db);
}
