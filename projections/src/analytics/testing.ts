import { randomUUID } from 'node:crypto';
import { type Click, clickMessage } from '@sniplink/contracts';
import type { ClickStream, Database, Offsets, StreamMessage } from '@sniplink/platform';
import { sampleClick } from '@sniplink/test-support/clicks';
import { type Kysely, sql } from 'kysely';
import { until as readUntil } from '../../../test/support/until';
import { withReadModels } from '../read-models';
import type { ClickAnalytics } from './consumer';

/** A human desktop click from the US with no referrer at `at`, unless told otherwise. */
export const click = (linkId: string, at: string, overrides: Partial<Click> = {}): Click =>
  sampleClick(linkId, { atMs: Date.parse(at), ...overrides });

export const newLinkId = (): string => randomUUID();

/** As the redirect publishes them: message lines keyed by link id. */
export const asMessages = (clicks: readonly Click[]): StreamMessage[] => clicks.map(clickMessage);

/** Publishes in batches of `size`, as the redirect's buffer does. */
export async function publishInBatches(stream: ClickStream, clicks: readonly Click[], size = 500) {
  for (let i = 0; i < clicks.length; i += size) await stream.publish(asMessages(clicks.slice(i, i + size)));
}

/** Resolves once the consumer has committed every message published so far. */
export async function drained(analytics: ClickAnalytics, stream: ClickStream, timeoutMs = 20_000) {
  const end = await stream.endOffsets();
  await until(() => Promise.resolve(reached(analytics.status().offsets, end)), timeoutMs);
}

/** Resolves once the stored offsets reach every partition's end (any process may have consumed). */
export async function storedDrained(db: Kysely<Database>, stream: ClickStream, timeoutMs = 20_000) {
  const end = await stream.endOffsets();
  await until(async () => reached(await storedOffsets(db), end), timeoutMs);
}

export async function storedOffsets(db: Kysely<Database>): Promise<Offsets> {
  const rows = await withReadModels(db)
    .selectFrom('click_consumer_offsets')
    .select(['partition', 'next_offset'])
    .execute();
  return new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
}

/** Waits until `done`; throws when it is not done in time. */
export async function until(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  if (!(await readUntil(done, (ok) => ok, timeoutMs, 20))) throw new Error(`not done within ${timeoutMs} ms`);
}

function reached(offsets: Offsets, end: Offsets): boolean {
  return [...end].every(([partition, next]) => (offsets.get(partition) ?? 0n) >= next);
}

/**
 * What the read model holds, summed up: the invariant a crash must keep is that stored offsets and
 * counters describe the same set of messages.
 */
export async function readModelTotals(db: Kysely<Database>) {
  const { rows } = await sql<{
    humans: string;
    bots: string;
    hourly: string;
    platform: string;
    quarters: string;
    offsets: string;
  }>`
    SELECT (SELECT coalesce(sum(clicks), 0) FROM rm_link_clicks)::text AS humans,
      (SELECT coalesce(sum(bot_clicks), 0) FROM rm_link_clicks)::text AS bots,
      (SELECT coalesce(sum(clicks), 0) FROM rm_click_buckets WHERE dimension = 'total')::text AS hourly,
      (SELECT clicks FROM rm_platform_clicks)::text AS platform,
      (SELECT coalesce(sum(clicks), 0) FROM rm_platform_click_quarters)::text AS quarters,
      (SELECT coalesce(sum(next_offset), 0) FROM click_consumer_offsets)::text AS offsets`.execute(db);
  const row = rows[0];
  return {
    humans: Number(row?.humans),
    bots: Number(row?.bots),
    hourly: Number(row?.hourly),
    /** The admin Overview's platform-wide counts: each must equal `humans`. */
    platform: Number(row?.platform),
    quarters: Number(row?.quarters),
    offsets: Number(row?.offsets),
  };
}

/** Link id -> { clicks, botClicks } as stored. */
export async function linkTotals(db: Kysely<Database>) {
  const rows = await withReadModels(db)
    .selectFrom('rm_link_clicks')
    .select(['link_id', 'clicks', 'bot_clicks'])
    .execute();
  return new Map(
    rows.map((row) => [row.link_id, { clicks: Number(row.clicks), botClicks: Number(row.bot_clicks) }]),
  );
}

/** The same, counted straight from the clicks published (each id once). */
export function expectedLinkTotals(clicks: readonly Click[]) {
  const seen = new Set<string>();
  const totals = new Map<string, { clicks: number; botClicks: number }>();
  for (const c of clicks) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    const total = totals.get(c.linkId) ?? { clicks: 0, botClicks: 0 };
    if (c.bot) total.botClicks += 1;
    else total.clicks += 1;
    totals.set(c.linkId, total);
  }
  return totals;
}

/**
 * Dimension -> sum over its labels, per link (each must equal the link's human clicks), all time: the
 * rolled-up label counts plus the buckets not rolled up yet, as a breakdown reads them.
 */
export async function labelSums(db: Kysely<Database>) {
  const { rows } = await sql<{ link_id: string; dimension: string; clicks: string }>`
    SELECT link_id, dimension, sum(clicks)::text AS clicks FROM (
      SELECT link_id, dimension, clicks FROM rm_click_labels
      UNION ALL
      SELECT link_id, dimension, clicks FROM rm_click_buckets
      WHERE dimension <> 'total' AND hour >= (SELECT labels_through FROM rm_click_rollup)
    ) AS counts
    GROUP BY link_id, dimension`.execute(db);
  return rows.map((row) => ({ linkId: row.link_id, dimension: row.dimension, clicks: Number(row.clicks) }));
}

/** Every analytics row, in a stable order, as plain JSON (two snapshots compare with toEqual). */
export async function analyticsSnapshot(db: Kysely<Database>) {
  const tables = {
    buckets: sql`SELECT * FROM rm_click_buckets ORDER BY link_id, dimension, label, hour`,
    labels: sql`SELECT * FROM rm_click_labels ORDER BY link_id, dimension, label`,
    links: sql`SELECT * FROM rm_link_clicks ORDER BY link_id`,
  };
  const snapshot: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(tables)) {
    snapshot[name] = JSON.parse(JSON.stringify((await query.execute(db)).rows));
  }
  return snapshot;
}
