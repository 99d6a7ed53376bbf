import { type Kysely, sql } from 'kysely';

/**
 * Link controls. The links read model gets each link's controls (the redirect reads them on a cache
 * miss, the dashboard lists and filters by them). Two operational tables no projection rebuild touches:
 * `link_passwords`, the argon2 hashes of link passwords (the log names a row by `password_id`, never the
 * hash), and `link_click_uses`, how many human clicks each click-limited link has redirected, taken by
 * one atomic update per click so that no two redirect processes can both take the last one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE rm_links
      ADD COLUMN password_id uuid,
      ADD COLUMN expires_at timestamptz,
      ADD COLUMN max_clicks integer,
      ADD COLUMN fallback_url text,
      ADD COLUMN paused boolean NOT NULL DEFAULT false,
      ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`
    CREATE TABLE link_passwords (
      password_id uuid PRIMARY KEY,
      link_id uuid NOT NULL,
      hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX link_passwords_link ON link_passwords (link_id)`.execute(db);
  await sql`
    CREATE TABLE link_click_uses (
      link_id uuid PRIMARY KEY,
      used integer NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE link_click_uses`.execute(db);
  await sql`DROP TABLE link_passwords`.execute(db);
  await sql`
    ALTER TABLE rm_links
      DROP COLUMN password_id, DROP COLUMN expires_at, DROP COLUMN max_clicks,
      DROP COLUMN fallback_url, DROP COLUMN paused, DROP COLUMN tags`.execute(db);
}
