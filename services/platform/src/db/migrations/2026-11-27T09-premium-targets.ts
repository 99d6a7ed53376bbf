import { type Kysely, sql } from 'kysely';

/**
 * Owners' premium slugs: the catalogue's read model keeps the URL each owner set, which the
 * redirect reads on a cache miss (by `slug`, already indexed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_premium_slugs ADD COLUMN target_url text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_premium_slugs DROP COLUMN target_url`.execute(db);
}
