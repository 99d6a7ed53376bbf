import { type Kysely, sql } from 'kysely';

/** The SEO settings read model: one row per page an admin has saved, as its stream's last event left it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_seo_settings (
      page text PRIMARY KEY,
      title text NOT NULL,
      description text,
      keywords text,
      og_title text,
      og_description text,
      og_image text,
      is_public boolean NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_seo_settings`.execute(db);
}
