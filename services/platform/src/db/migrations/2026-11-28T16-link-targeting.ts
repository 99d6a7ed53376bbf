import { type Kysely, sql } from 'kysely';

/**
 * Link targeting. The links read model gets each link's targeting rules (the redirect reads them on a
 * cache miss with the other controls); a link without rules has `[]`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_links ADD COLUMN rules jsonb NOT NULL DEFAULT '[]'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_links DROP COLUMN rules`.execute(db);
}
