import { type Kysely, sql } from 'kysely';

/**
 * The analytics consumer does not record every click id it counts (a row, an index entry and their WAL
 * per click, and a prune): a publish re-sent with its id is stored once by the click stream (cs_publishes),
 * and a batch delivered again is recognised by the offsets stored with the counters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_click_ids`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_click_ids (
      click_id uuid PRIMARY KEY,
      counted_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_click_ids_counted_at ON rm_click_ids (counted_at)`.execute(db);
}
