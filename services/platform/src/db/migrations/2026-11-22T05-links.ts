import { type Kysely, sql } from 'kysely';

/** The links read model, and the operational table that makes a double-submitted create one link. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_links (
      link_id uuid PRIMARY KEY,
      owner_id text NOT NULL,
      code text NOT NULL,
      code_lower text NOT NULL,
      original_url text NOT NULL,
      title text,
      origin text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted boolean NOT NULL DEFAULT false,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_links_owner ON rm_links (owner_id, created_at DESC, link_id) WHERE NOT deleted`.execute(
    db,
  );
  await sql`CREATE INDEX rm_links_code ON rm_links (code_lower) WHERE NOT deleted`.execute(db);
  await sql`
    CREATE TABLE idempotency_keys (
      owner_id text NOT NULL,
      key text NOT NULL,
      status integer,
      body jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (owner_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys, rm_links`.execute(db);
}
