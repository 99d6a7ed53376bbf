import { type Kysely, sql } from 'kysely';

/**
 * The publish parts the analytics consumer has counted, written with its counters and offsets. Kafka may
 * store a publish re-sent under the same id twice (its idempotent producer drops only its own retries);
 * the consumer counts a part's first copy on a partition, whose offsets end before `end_offset`, and
 * skips any later copy. A row per publish and partition rather than per click (rm_click_ids cost a row
 * per click, see `…22T09-drop-click-ids`). Kept a day, as the click stream's port promises for ids;
 * `counted_at` is indexed for that prune. The PostgreSQL stream stores a re-sent publish once and leaves
 * this table empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE click_publishes_counted (
      partition integer NOT NULL,
      publish_id text NOT NULL,
      end_offset bigint NOT NULL,
      counted_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (partition, publish_id)
    )`.execute(db);
  await sql`CREATE INDEX click_publishes_counted_at ON click_publishes_counted (counted_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE click_publishes_counted`.execute(db);
}
