import type { Database } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';

/**
 * Seeds `count` live links straight into the read model (no events behind them), for benches that
 * need a large table fast: codes `m0000000`, `m0000001`, …, one owner, long shop URLs as targets.
 */
export async function insertSyntheticLinks(db: Kysely<Database>, count: number): Promise<void> {
  await sql`
    INSERT INTO rm_links (link_id, owner_id, code, code_lower, original_url, title, origin, created_at, updated_at, last_revision)
    SELECT gen_random_uuid(), 'bench-owner', c, c, 'https://shop.example.com/products/' || i || '?utm_source=newsletter&utm_campaign=spring', NULL, 'user', now(), now(), 0
    FROM generate_series(0, ${count}::int - 1) AS i, LATERAL (SELECT 'm' || lpad(i::text, 7, '0') AS c) AS code`.execute(
    db,
  );
  await sql`ANALYZE rm_links`.execute(db);
}
