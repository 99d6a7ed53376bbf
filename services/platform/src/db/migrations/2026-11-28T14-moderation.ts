import { type Kysely, sql } from 'kysely';

/**
 * The moderation read model: the prohibited words and protected brands (one row per entry, deleted
 * ones gone), the codes waiting for or given an admin's approval; and on the links read model, whether a
 * link's code waits for approval (such a link redirects nowhere yet).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_prohibited_words (
      word_id uuid PRIMARY KEY,
      word text NOT NULL,
      category text NOT NULL,
      severity text NOT NULL,
      is_active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE rm_protected_brands (
      brand_id uuid PRIMARY KEY,
      brand text NOT NULL,
      category text NOT NULL,
      requires_approval boolean NOT NULL,
      is_active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE rm_slug_approvals (
      approval_id uuid PRIMARY KEY,
      link_id uuid NOT NULL,
      link_revision bigint NOT NULL,
      user_id text NOT NULL,
      slug text NOT NULL,
      matched_brand text NOT NULL,
      status text NOT NULL,
      notes text,
      reason text,
      new_code text,
      created_at timestamptz NOT NULL,
      decided_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX rm_slug_approvals_by_status ON rm_slug_approvals (status, created_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX rm_slug_approvals_by_user ON rm_slug_approvals (user_id, decided_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX rm_slug_approvals_by_link ON rm_slug_approvals (link_id)`.execute(db);
  await sql`ALTER TABLE rm_links ADD COLUMN pending_approval boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_links DROP COLUMN pending_approval`.execute(db);
  await sql`DROP TABLE rm_slug_approvals, rm_protected_brands, rm_prohibited_words`.execute(db);
}
