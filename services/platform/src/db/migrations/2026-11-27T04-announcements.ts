import { type Kysely, sql } from 'kysely';

/**
 * The announcements read model: every announcement as its last event left it, and which
 * user dismissed which (filled by the announcements projection).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_announcements (
      announcement_id uuid PRIMARY KEY,
      title text NOT NULL,
      message text NOT NULL,
      type text NOT NULL,
      target_audience text NOT NULL,
      is_active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE INDEX rm_announcements_newest ON rm_announcements (created_at DESC, announcement_id DESC)
  `.execute(db);
  await sql`
    CREATE TABLE rm_announcement_dismissals (
      user_id uuid NOT NULL,
      announcement_id uuid NOT NULL,
      dismissed_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, announcement_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_announcement_dismissals, rm_announcements`.execute(db);
}
