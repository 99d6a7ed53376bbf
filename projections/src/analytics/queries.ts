import type { LinkAnalytics } from '@sniplink/contracts';
import { type ClickStream, type Database, partitionFor } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { withReadModels } from '../read-models';
import { ANALYTICS_CONSUMER, type ClickDimension, TOTAL_BUCKET } from './consumer';

const DAY_MS = 86_400_000;

/** A link's all-time breakdowns and its last UTC days; a range's (`period`) comes from `linkClicksIn`. */
type AllTimeAnalytics = Omit<LinkAnalytics, 'period'>;
type Breakdowns = Omit<AllTimeAnalytics, 'clicksByDay'>;

const breakdownKeys: Record<ClickDimension, keyof Breakdowns> = {
  device: 'deviceBreakdown',
  referrer: 'referrerBreakdown',
  country: 'countryBreakdown',
  browser: 'browserBreakdown',
  os: 'osBreakdown',
  rule: 'ruleBreakdown',
};

export interface LinkAnalyticsOptions {
  /** How many UTC days `clicksByDay` covers, ending today. */
  days?: number;
  now?: Date;
}

/**
 * A link's human clicks: each breakdown over all time (label -> clicks, most clicked first) and the clicks
 * of each of the last `days` UTC days, oldest first, days without clicks included as 0. Bots are not in it.
 * The caller checks that the link exists and belongs to the asker.
 */
export async function linkAnalytics(
  db: Kysely<Database>,
  linkId: string,
  { days = 30, now = new Date() }: LinkAnalyticsOptions = {},
): Promise<AllTimeAnalytics> {
  const [breakdowns, clicksByDay] = await Promise.all([
    breakdownsOf(db, linkId),
    clicksPerDay(db, linkId, Math.max(0, Math.floor(days)), now),
  ]);
  return { ...breakdowns, clicksByDay };
}

/** Link id -> human clicks, for every id asked (0 for a link never clicked). */
export async function clickCounts(
  db: Kysely<Database>,
  linkIds: readonly string[],
): Promise<Map<string, number>> {
  if (linkIds.length === 0) return new Map();
  const { rows } = await sql<{ link_id: string; clicks: string }>`
    SELECT link_id, clicks FROM rm_link_clicks
    WHERE link_id = ANY(${linkIds.map((id) => id.toLowerCase())}::uuid[])`.execute(db);
  const stored = new Map(rows.map((row) => [row.link_id, Number(row.clicks)]));
  return new Map(linkIds.map((id) => [id, stored.get(id.toLowerCase()) ?? 0]));
}

/** A link's counted clicks, humans and bots apart (0 for a link never clicked). */
export async function linkClickTotals(
  db: Kysely<Database>,
  linkId: string,
): Promise<{ clicks: number; botClicks: number }> {
  const { rows } = await sql<{ clicks: string; bot_clicks: string }>`
    SELECT clicks, bot_clicks FROM rm_link_clicks WHERE link_id = ${linkId.toLowerCase()}::uuid`.execute(db);
  return { clicks: Number(rows[0]?.clicks ?? 0), botClicks: Number(rows[0]?.bot_clicks ?? 0) };
}

/** Human clicks over every link the owner still has (deleted links no longer count). */
export async function userClickTotal(db: Kysely<Database>, ownerId: string): Promise<number> {
  const row = await withReadModels(db)
    .selectFrom('rm_links as l')
    .innerJoin('rm_link_clicks as c', 'c.link_id', 'l.link_id')
    .select((eb) => eb.fn.sum<string | null>('c.clicks').as('total'))
    .where('l.owner_id', '=', ownerId)
    .where('l.deleted', '=', false)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Clicks counted over every link, humans and bots apart. */
export async function countedClicks(db: Kysely<Database>): Promise<{ clicks: number; botClicks: number }> {
  const { rows } = await sql<{ clicks: string; bots: string }>`
    SELECT coalesce(sum(clicks), 0)::text AS clicks, coalesce(sum(bot_clicks), 0)::text AS bots
    FROM rm_link_clicks`.execute(db);
  return { clicks: Number(rows[0]?.clicks), botClicks: Number(rows[0]?.bots) };
}

/** How many hourly counter rows the read model holds (the counters' writes grow with them). */
export async function hourlyBucketCount(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{
    buckets: string;
  }>`SELECT count(*)::text AS buckets FROM rm_click_buckets`.execute(db);
  return Number(rows[0]?.buckets);
}

/**
 * All-time counts: the rolled-up label counts plus the link's buckets of the hours not rolled up yet (one
 * statement, one snapshot: a roll-up committing meanwhile is seen whole or not at all).
 */
async function breakdownsOf(db: Kysely<Database>, linkId: string): Promise<Breakdowns> {
  const { rows } = await sql<{ dimension: string; label: string; clicks: string }>`
    SELECT dimension, label, sum(clicks)::text AS clicks FROM (
      SELECT dimension, label, clicks FROM rm_click_labels WHERE link_id = ${linkId}
      UNION ALL
      SELECT b.dimension, b.label, b.clicks FROM rm_click_buckets b
      WHERE b.link_id = ${linkId} AND b.hour >= (SELECT labels_through FROM rm_click_rollup)
        AND b.dimension <> ${TOTAL_BUCKET.dimension}
    ) AS counts
    GROUP BY dimension, label
    ORDER BY sum(clicks) DESC, label`.execute(db);
  const result: Breakdowns = {
    deviceBreakdown: {},
    referrerBreakdown: {},
    countryBreakdown: {},
    browserBreakdown: {},
    osBreakdown: {},
    ruleBreakdown: {},
  };
  for (const row of rows) {
    const key = breakdownKeys[row.dimension as ClickDimension];
    if (key) result[key][row.label] = Number(row.clicks);
  }
  return withMainTarget(result);
}

/**
 * The main target's clicks in `ruleBreakdown` (`main`): every human click has a device, so the devices'
 * sum is the total, and the clicks no rule sent are the rest.
 */
function withMainTarget(result: Breakdowns): Breakdowns {
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((all, n) => all + n, 0);
  const main = sum(result.deviceBreakdown) - sum(result.ruleBreakdown);
  if (main > 0) result.ruleBreakdown = { main, ...result.ruleBreakdown };
  return result;
}

async function clicksPerDay(
  db: Kysely<Database>,
  linkId: string,
  days: number,
  now: Date,
): Promise<AllTimeAnalytics['clicksByDay']> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  // Summed from the hourly totals; a click stamped in the future (a skewed clock) is left out until its day.
  const { rows } = await sql<{ date: string; clicks: string }>`
    SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, sum(clicks)::text AS clicks
    FROM rm_click_buckets
    WHERE link_id = ${linkId} AND dimension = ${TOTAL_BUCKET.dimension} AND label = ${TOTAL_BUCKET.label}
      AND hour >= ${new Date(first).toISOString()}::timestamptz
      AND hour < ${new Date(today + DAY_MS).toISOString()}::timestamptz
    GROUP BY 1`.execute(db);
  const byDate = new Map(rows.map((row) => [row.date, Number(row.clicks)]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
    return { date, clicks: byDate.get(date) ?? 0 };
  });
}

/** A range of hours to count a link's clicks over, and where the range of the same length before it starts. */
export interface ClicksWindow {
  /** Included; a whole hour or not (a time zone half an hour off UTC). */
  from: Date;
  /** Excluded. */
  to: Date;
  previousFrom: Date;
}

export interface WindowClicks {
  /** The link's clicks per hour counted in the window, by the hour they start (hours without clicks left out). */
  hours: { hour: Date; clicks: number }[];
  /** Clicks per label of each dimension within the window, most clicked first. */
  labels: { dimension: ClickDimension; label: string; clicks: number }[];
  /** Clicks from `previousFrom` up to `from`. */
  previousTotal: number;
}

/**
 * A link's human clicks within a window, from the hourly buckets (kept for good, so any past range can be
 * asked). An hour belongs to the window when it starts in it; a click stamped in the future is left out
 * until its hour. The caller checks that the link exists and belongs to the asker.
 */
export async function linkClicksIn(
  db: Kysely<Database>,
  linkId: string,
  { from, to, previousFrom }: ClicksWindow,
): Promise<WindowClicks> {
  const total = sql`link_id = ${linkId} AND dimension = ${TOTAL_BUCKET.dimension} AND label = ${TOTAL_BUCKET.label}`;
  const [hours, labels, previous] = await Promise.all([
    sql<{ hour: Date; clicks: string }>`
      SELECT hour, clicks::text AS clicks FROM rm_click_buckets
      WHERE ${total} AND hour >= ${from} AND hour < ${to} ORDER BY hour`.execute(db),
    sql<{ dimension: ClickDimension; label: string; clicks: string }>`
      SELECT dimension, label, sum(clicks)::text AS clicks FROM rm_click_buckets
      WHERE link_id = ${linkId} AND hour >= ${from} AND hour < ${to} AND dimension <> ${TOTAL_BUCKET.dimension}
      GROUP BY dimension, label
      ORDER BY sum(clicks) DESC, label`.execute(db),
    sql<{ clicks: string | null }>`
      SELECT sum(clicks)::text AS clicks FROM rm_click_buckets
      WHERE ${total} AND hour >= ${previousFrom} AND hour < ${from}`.execute(db),
  ]);
  return {
    hours: hours.rows.map((row) => ({ hour: row.hour, clicks: Number(row.clicks) })),
    labels: labels.rows.map((row) => ({ ...row, clicks: Number(row.clicks) })),
    previousTotal: Number(previous.rows[0]?.clicks ?? 0),
  };
}

/** Clicks published but not yet counted, over all partitions (any process can ask). */
export async function clicksBehind(db: Kysely<Database>, endOffsets: Map<number, bigint>): Promise<number> {
  const rows = await withReadModels(db)
    .selectFrom('click_consumer_offsets')
    .select(['partition', 'next_offset'])
    .where('consumer', '=', 'analytics')
    .execute();
  const counted = new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
  let behind = 0n;
  for (const [partition, end] of endOffsets) behind += end - (counted.get(partition) ?? 0n);
  return Number(behind);
}

/** Clicks the analytics consumer has counted since the click log began: its offsets, summed. */
export async function clicksCounted(db: Kysely<Database>): Promise<number> {
  const row = await withReadModels(db)
    .selectFrom('click_consumer_offsets')
    .select((eb) => eb.fn.sum<string | number | null>('next_offset').as('counted'))
    .where('consumer', '=', 'analytics')
    .executeTakeFirst();
  return Number(row?.counted ?? 0);
}

/**
 * Whether anyone ever followed a link, for a code it gives up: `counted` when it has counted clicks
 * (humans or bots); `none` when it has none and its partition of the click log holds nothing uncounted,
 * so every click published before this call is in the counts; else `unconfirmed`. Clicks still in a
 * redirecting process's memory are not in the log yet: that is the window this cannot see.
 */
export async function linkClicks(
  db: Kysely<Database>,
  stream: Pick<ClickStream, 'partitionCount' | 'endOffsets'>,
  linkId: string,
): Promise<'counted' | 'none' | 'unconfirmed'> {
  const id = linkId.toLowerCase();
  // Clicks are keyed by link id: this link's are all in one partition, in the order they were published.
  const partition = partitionFor(id, stream.partitionCount);
  const published = (await stream.endOffsets()).get(partition) ?? 0n;
  // One statement: the consumer commits its offsets with the counters, so one snapshot sees both agree.
  const { rows } = await sql<{ clicks: string | null; next_offset: string | null }>`
    SELECT
      (SELECT clicks + bot_clicks FROM rm_link_clicks WHERE link_id = ${id}::uuid)::text AS clicks,
      (SELECT next_offset FROM click_consumer_offsets
        WHERE consumer = ${ANALYTICS_CONSUMER} AND partition = ${partition})::text AS next_offset`.execute(
    db,
  );
  const row = rows[0];
  if (Number(row?.clicks ?? 0) > 0) return 'counted';
  return BigInt(row?.next_offset ?? 0) >= published ? 'none' : 'unconfirmed';
}

/**
 * The human clicks of each of `linkIds` per UTC day, over all time (days without clicks left out), by link
 * then day: summed from the hourly totals, which are kept for good.
 */
export async function dailyClicksOf(
  db: Kysely<Database>,
  linkIds: readonly string[],
): Promise<{ linkId: string; date: string; clicks: number }[]> {
  if (linkIds.length === 0) return [];
  const { rows } = await sql<{ link_id: string; date: string; clicks: string }>`
    SELECT link_id, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, sum(clicks)::text AS clicks
    FROM rm_click_buckets
    WHERE link_id = ANY(${[...linkIds]}::uuid[])
      AND dimension = ${TOTAL_BUCKET.dimension} AND label = ${TOTAL_BUCKET.label}
    GROUP BY 1, 2
    ORDER BY 1, 2`.execute(db);
  return rows.map((row) => ({ linkId: row.link_id, date: row.date, clicks: Number(row.clicks) }));
}
