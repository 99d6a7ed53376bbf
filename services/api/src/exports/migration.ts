import { type Kysely, sql } from 'kysely';

/**
 * "Download my data": one row per export a user asked for, and its ZIP in parts of at most a few hundred
 * kilobytes, written as the ZIP is streamed out and read back the same way, so neither side holds the
 * whole file and every process of the app can serve it. Operational rows, never events: an erasure or the
 * end of its day deletes them outright.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE user_exports (
      export_id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      status text NOT NULL,
      done integer NOT NULL DEFAULT 0,
      total integer NOT NULL,
      size bigint,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      expires_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX user_exports_by_user ON user_exports (user_id, created_at)`.execute(db);
  await sql`
    CREATE TABLE user_export_parts (
      export_id uuid NOT NULL REFERENCES user_exports (export_id) ON DELETE CASCADE,
      part integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (export_id, part)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE user_export_parts`.execute(db);
  await sql`DROP TABLE user_exports`.execute(db);
}
