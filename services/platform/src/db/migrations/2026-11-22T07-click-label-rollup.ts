import { type Kysely, sql } from 'kysely';

/**
 * All-time label counts are rolled up from the hourly buckets instead of being added to by every batch:
 * the consumer writes a click's labels once (its hourly buckets), and a periodic roll-up folds the hours
 * before `labels_through` into rm_click_labels. A breakdown reads rm_click_labels plus the link's buckets
 * from `labels_through` on (an hour or two), found through the new (link_id, hour) index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_click_rollup (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      labels_through timestamptz NOT NULL
    )`.execute(db);
  // Every click stored so far went into rm_click_labels too: those hours are already rolled up.
  await sql`
    INSERT INTO rm_click_rollup (labels_through)
    SELECT coalesce(max(hour) + interval '1 hour', 'epoch') FROM rm_click_buckets`.execute(db);
  await sql`CREATE INDEX rm_click_buckets_link_hour ON rm_click_buckets (link_id, hour)`.execute(db);
  // The roll-up reads one hour of every link: a BRIN index (rows come in roughly hour by hour) finds it
  // without a full scan, and costs next to nothing to keep up.
  await sql`CREATE INDEX rm_click_buckets_hour ON rm_click_buckets USING brin (hour)`.execute(db);
  // Room on each page for the updated row: adding to a counter is then a HOT update (no index entry).
  await sql`ALTER TABLE rm_click_buckets SET (fillfactor = 80)`.execute(db);
  await sql`ALTER TABLE rm_link_clicks SET (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_link_clicks RESET (fillfactor)`.execute(db);
  await sql`ALTER TABLE rm_click_buckets RESET (fillfactor)`.execute(db);
  await sql`DROP INDEX rm_click_buckets_hour, rm_click_buckets_link_hour`.execute(db);
  await sql`DROP TABLE rm_click_rollup`.execute(db);
}
