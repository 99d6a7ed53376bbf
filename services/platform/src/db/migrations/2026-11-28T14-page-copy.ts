import { type Kysely, sql } from 'kysely';

/**
 * The page copy read model: each informational page's draft as its stream last left it, and every
 * version ever published (a version is never changed once written).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_page_copy (
      page text PRIMARY KEY,
      title text NOT NULL,
      content text NOT NULL,
      published boolean NOT NULL,
      version integer NOT NULL,
      published_at timestamptz,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE rm_page_copy_versions (
      page text NOT NULL,
      version integer NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      published_at timestamptz NOT NULL,
      PRIMARY KEY (page, version)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_page_copy_versions`.execute(db);
  await sql`DROP TABLE rm_page_copy`.execute(db);
}
