import { type Kysely, sql } from 'kysely';

/**
 * The premium catalogue's read model: every premium slug as its last event left it (filled by
 * the marketplace projection), with indexes for the Premium tab's filters and the marketplace's list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_premium_slugs (
      slug_id uuid PRIMARY KEY,
      slug text NOT NULL,
      category text NOT NULL,
      price integer NOT NULL,
      tier text NOT NULL,
      is_available boolean NOT NULL,
      stripe_price_id text,
      owner_id uuid,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  // Not unique: the code's stream `shortcode-{slug}` is the authority, and a clash here would stall the
  // projection. A deleted slug's row stays as a tombstone (a re-delivered add finds it, adds nothing).
  await sql`CREATE INDEX rm_premium_slugs_slug ON rm_premium_slugs (slug) WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX rm_premium_slugs_category ON rm_premium_slugs (category, slug)`.execute(db);
  await sql`CREATE INDEX rm_premium_slugs_tier ON rm_premium_slugs (tier, slug)`.execute(db);
  await sql`CREATE INDEX rm_premium_slugs_available ON rm_premium_slugs (is_available, slug)`.execute(db);
  await sql`CREATE INDEX rm_premium_slugs_owner ON rm_premium_slugs (owner_id) WHERE owner_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_premium_slugs`.execute(db);
}
