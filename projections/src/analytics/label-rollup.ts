import type { Database } from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import { TOTAL_BUCKET } from './counters';

/**
 * All-time label counts (rm_click_labels) hold the clicks of the hours before `labels_through`; the hours
 * from it on are only in the hourly buckets, and a breakdown adds those (see `breakdownsOf`). Batches thus
 * write a click's labels once, into its buckets, and `rollUpLabels` folds finished hours into the all-time
 * counts once per hour. A click consumed late, whose hour is rolled up already, adds to both directly.
 */

/**
 * `labels_through` (ms), share-locked until the batch's transaction ends: a roll-up, which takes the row
 * exclusively, cannot fold an hour while a batch is adding to it (it would miss the batch's clicks), and
 * cannot move `labels_through` between a batch's read and its commit. Batches do not block each other.
 */
export async function lockLabelsThrough(trx: Transaction<Database>): Promise<number> {
  const { rows } = await sql<{ through: Date }>`
    SELECT labels_through AS through FROM rm_click_rollup FOR SHARE`.execute(trx);
  const through = rows[0]?.through;
  if (!through) throw new Error('rm_click_rollup has no row; is the database migrated?');
  return through.getTime();
}

/**
 * Folds the buckets of the hours from `labels_through` up to `through` (excluded) into the all-time
 * label counts and moves `labels_through` there, in one transaction. A no-op when it is there already.
 * Returns the number of label rows added to.
 */
export async function rollUpLabels(db: Kysely<Database>, through: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ since: Date }>`
      SELECT labels_through AS since FROM rm_click_rollup FOR UPDATE`.execute(trx);
    const since = rows[0]?.since;
    if (!since || since >= through) return 0;
    // A later statement than the lock, so its snapshot includes every batch that committed before it.
    const result = await sql`
      INSERT INTO rm_click_labels (link_id, dimension, label, clicks)
      SELECT link_id, dimension, label, sum(clicks) FROM rm_click_buckets
      WHERE hour >= ${since} AND hour < ${through} AND dimension <> ${TOTAL_BUCKET.dimension}
      GROUP BY link_id, dimension, label
      ON CONFLICT (link_id, dimension, label) DO UPDATE SET clicks = rm_click_labels.clicks + excluded.clicks
    `.execute(trx);
    await sql`UPDATE rm_click_rollup SET labels_through = ${through}`.execute(trx);
    return Number(result.numAffectedRows ?? 0n);
  });
}
