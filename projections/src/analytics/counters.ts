import type { Database } from '@sniplink/platform';
import { sql, type Transaction } from 'kysely';

/**
 * `rule`: the index of the targeting rule that sent the click, or '' for the link's main target, which is
 * counted in no row of its own (the total less the rules' clicks), so plain links' clicks add no rows.
 */
export const clickDimensions = ['device', 'referrer', 'country', 'browser', 'os', 'rule'] as const;
export type ClickDimension = (typeof clickDimensions)[number];
/** The hourly bucket that counts every human click, whatever its labels. */
export const TOTAL_BUCKET = { dimension: 'total', label: 'all' } as const;
export const HOUR_MS = 3_600_000;
/** The platform's clicks are counted per quarter hour: every time zone's offset is a multiple of it. */
export const QUARTER_MS = 900_000;

/** A click's label in each dimension. Clicks with the same labels share one (frozen) object. */
export type ClickLabelSet = Readonly<Record<ClickDimension, string>>;

export interface ParsedClick {
  id: string;
  linkId: string;
  atMs: number;
  bot: boolean;
  labels: ClickLabelSet;
}

/** Label -> clicks, one map per dimension (in `clickDimensions` order). */
type LabelCounts = Map<string, number>[];

interface HourTally {
  total: number;
  /** Clicks per set of labels, one entry per set (its count kept in the entry: one map look-up per click). */
  labelSets: Map<ClickLabelSet, LabelSetCount>;
  /** The entry the hour's last click added to: a link's visitors repeat their labels click after click. */
  last: LabelSetCount | undefined;
}

interface LabelSetCount {
  labels: ClickLabelSet;
  clicks: number;
}

interface LinkTally {
  clicks: number;
  botClicks: number;
  lastClickMs: number | null;
  hours: Map<number, HourTally>;
  /** The hour the link's last human click went to (most clicks of a flush fall in the same hour). */
  lastHourMs: number;
  lastHour: HourTally | undefined;
}

/**
 * Clicks summed per link, hour and set of labels, so that each counter row takes one upsert per flush
 * however many clicks (and batches) add to it. A human click adds to its hour's total and to one bucket per
 * dimension; its labels' all-time counts come from the roll-up, unless its hour is rolled up already
 * when the tally is written (see `addToReadModel`), when it adds to them directly.
 *
 * `add` runs once per click on the click thread: one map look-up by link id, then the link's last hour
 * and that hour's last label set are tried before their maps (four look-ups a click took a fifth of the
 * thread's time under load).
 */
export class ClickTally {
  readonly links = new Map<string, LinkTally>();
  /** Clicks added, humans and bots. */
  clicks = 0;
  /**
   * Sums held: links, their hours, and the label sets of each hour. What the tally's memory and the
   * flush's statements grow with (a few hundred bytes and up to eight counter rows each: the total and
   * one per dimension, the rule's only for a rule's clicks).
   */
  sums = 0;
  /** Human clicks of all links per quarter hour (ms), for the admin Overview. */
  readonly quarters = new Map<number, QuarterCount>();
  /** The quarter the last human click went to (nearly every click of a flush falls in the same one). */
  private lastQuarter: QuarterCount | undefined;

  add(click: ParsedClick): void {
    this.clicks += 1;
    let link = this.links.get(click.linkId);
    if (link === undefined) {
      link = {
        clicks: 0,
        botClicks: 0,
        lastClickMs: null,
        hours: new Map(),
        lastHourMs: Number.NaN,
        lastHour: undefined,
      };
      this.links.set(click.linkId, link);
      this.sums += 1;
    }
    if (click.bot) {
      link.botClicks += 1;
      return;
    }
    link.clicks += 1;
    this.addToQuarter(click.atMs);
    if (link.lastClickMs === null || click.atMs > link.lastClickMs) link.lastClickMs = click.atMs;
    const hourMs = Math.floor(click.atMs / HOUR_MS) * HOUR_MS;
    let hour = link.lastHourMs === hourMs ? link.lastHour : link.hours.get(hourMs);
    if (hour === undefined) {
      hour = { total: 0, labelSets: new Map(), last: undefined };
      link.hours.set(hourMs, hour);
      this.sums += 1;
    }
    link.lastHourMs = hourMs;
    link.lastHour = hour;
    hour.total += 1;
    let same = hour.last?.labels === click.labels ? hour.last : hour.labelSets.get(click.labels);
    if (same === undefined) {
      same = { labels: click.labels, clicks: 0 };
      hour.labelSets.set(click.labels, same);
      this.sums += 1;
    }
    same.clicks += 1;
    hour.last = same;
  }

  private addToQuarter(atMs: number): void {
    const quarterMs = atMs - (atMs % QUARTER_MS);
    let quarter = this.lastQuarter?.quarterMs === quarterMs ? this.lastQuarter : this.quarters.get(quarterMs);
    if (quarter === undefined) {
      quarter = { quarterMs, clicks: 0 };
      this.quarters.set(quarterMs, quarter);
    }
    quarter.clicks += 1;
    this.lastQuarter = quarter;
  }
}

interface QuarterCount {
  quarterMs: number;
  clicks: number;
}

function addOne(counts: Map<string, number> | undefined, label: string, clicks = 1): void {
  counts?.set(label, (counts.get(label) ?? 0) + clicks);
}

/**
 * One upsert per table, its rows passed as columns. Hours before `labelsThroughMs` are rolled up
 * already: their labels also go to the all-time counts.
 */
export async function addToReadModel(
  trx: Transaction<Database>,
  tally: ClickTally,
  labelsThroughMs: number,
): Promise<void> {
  // In slices of links: building one statement for a whole flush (tens of thousands of rows when the
  // clicks are spread out) held the event loop long enough to show in the redirect's p99. Each slice's
  // statements are awaited, so redirects are answered between slices.
  const links = [...tally.links];
  for (let at = 0; at < links.length; at += LINKS_PER_STATEMENT) {
    const rows = counterRows(links.slice(at, at + LINKS_PER_STATEMENT), labelsThroughMs);
    await upsertBuckets(trx, rows);
    await upsertLabels(trx, rows);
    await upsertLinks(trx, rows);
  }
  await addToPlatformClicks(trx, tally.quarters);
}

/** The platform's human clicks, per quarter hour and in all: a few rows a flush. */
async function addToPlatformClicks(trx: Transaction<Database>, quarters: Map<number, QuarterCount>) {
  if (quarters.size === 0) return;
  const starts: string[] = [];
  const clicks: number[] = [];
  let total = 0;
  // In time order: two members flushing at once (Kafka) then lock the rows they share in the same order.
  for (const quarter of [...quarters.values()].sort((a, b) => a.quarterMs - b.quarterMs)) {
    starts.push(new Date(quarter.quarterMs).toISOString());
    clicks.push(quarter.clicks);
    total += quarter.clicks;
  }
  await sql`
    INSERT INTO rm_platform_click_quarters (quarter, clicks)
    SELECT * FROM unnest(${arrayLiteral(starts)}::timestamptz[], ${arrayLiteral(clicks)}::bigint[])
    ON CONFLICT (quarter) DO UPDATE SET clicks = rm_platform_click_quarters.clicks + excluded.clicks
  `.execute(trx);
  await sql`
    INSERT INTO rm_platform_clicks (clicks) VALUES (${total})
    ON CONFLICT (singleton) DO UPDATE SET clicks = rm_platform_clicks.clicks + excluded.clicks
  `.execute(trx);
}

/** Links per set of upserts within a flush (each link is ~6 bucket rows when its clicks are spread). */
const LINKS_PER_STATEMENT = 1_000;

/** Dimension names, indexed from 1 as SQL arrays are: the total, then `clickDimensions` from 2. */
const DIMENSIONS = [TOTAL_BUCKET.dimension, ...clickDimensions];
const TOTAL_INDEX = 1;
const dimensionIndex = (d: number) => d + 2;

/**
 * The tally as SQL array literals (uuids, numbers and ISO times need no quoting: joining them is much
 * cheaper than the driver escaping every element). Dimensions and labels go as indexes into short
 * arrays of the distinct names: a batch repeats a few dozen labels thousands of times.
 */
function counterRows(links: Iterable<[string, LinkTally]>, labelsThroughMs: number) {
  const labelNames = new Names();
  labelNames.index(TOTAL_BUCKET.label);
  const buckets = {
    linkIds: [] as string[],
    hours: [] as string[],
    dims: [] as number[],
    labels: [] as number[],
    clicks: [] as number[],
  };
  const labels = {
    linkIds: [] as string[],
    dims: [] as number[],
    labels: [] as number[],
    clicks: [] as number[],
  };
  const linkRows = {
    linkIds: [] as string[],
    clicks: [] as number[],
    bots: [] as number[],
    last: [] as string[],
  };
  const addBucket = (linkId: string, hour: string, dim: number, label: string, clicks: number) => {
    buckets.linkIds.push(linkId);
    buckets.hours.push(hour);
    buckets.dims.push(dim);
    buckets.labels.push(labelNames.index(label));
    buckets.clicks.push(clicks);
  };
  for (const [linkId, link] of links) {
    linkRows.linkIds.push(linkId);
    linkRows.clicks.push(link.clicks);
    linkRows.bots.push(link.botClicks);
    linkRows.last.push(link.lastClickMs === null ? 'NULL' : new Date(link.lastClickMs).toISOString());
    const late: LabelCounts = clickDimensions.map(() => new Map());
    for (const [hourMs, hour] of link.hours) {
      const iso = new Date(hourMs).toISOString();
      addBucket(linkId, iso, TOTAL_INDEX, TOTAL_BUCKET.label, hour.total);
      labelCountsOf(hour.labelSets).forEach((counts, d) => {
        for (const [label, clicks] of counts) {
          addBucket(linkId, iso, dimensionIndex(d), label, clicks);
          if (hourMs < labelsThroughMs) addOne(late[d], label, clicks);
        }
      });
    }
    late.forEach((counts, d) => {
      for (const [label, clicks] of counts) {
        labels.linkIds.push(linkId);
        labels.dims.push(dimensionIndex(d));
        labels.labels.push(labelNames.index(label));
        labels.clicks.push(clicks);
      }
    });
  }
  return { buckets, labels, links: linkRows, labelNames: labelNames.list };
}

function labelCountsOf(labelSets: Map<ClickLabelSet, LabelSetCount>): LabelCounts {
  const counts: LabelCounts = clickDimensions.map(() => new Map());
  for (const { labels, clicks } of labelSets.values()) {
    clickDimensions.forEach((dimension, d) => {
      const label = labels[dimension];
      if (label !== '') addOne(counts[d], label, clicks);
    });
  }
  return counts;
}

/** Distinct strings, each given the 1-based index SQL arrays use. */
class Names {
  readonly list: string[] = [];
  private readonly indexes = new Map<string, number>();
  index(name: string): number {
    let index = this.indexes.get(name);
    if (index === undefined) {
      index = this.list.push(name);
      this.indexes.set(name, index);
    }
    return index;
  }
}

/** An array literal of elements that need no quoting (uuids, numbers, ISO times, NULL). */
export const arrayLiteral = (elements: readonly (string | number)[]): string => `{${elements.join(',')}}`;

type CounterRows = ReturnType<typeof counterRows>;

async function upsertBuckets(trx: Transaction<Database>, { buckets, labelNames }: CounterRows) {
  if (buckets.linkIds.length === 0) return;
  await sql`
    INSERT INTO rm_click_buckets (link_id, hour, dimension, label, clicks)
    SELECT link_id, hour, (${DIMENSIONS}::text[])[d], (${labelNames}::text[])[l], clicks
    FROM unnest(
      ${arrayLiteral(buckets.linkIds)}::uuid[], ${arrayLiteral(buckets.hours)}::timestamptz[],
      ${arrayLiteral(buckets.dims)}::int[], ${arrayLiteral(buckets.labels)}::int[],
      ${arrayLiteral(buckets.clicks)}::bigint[]) AS b(link_id, hour, d, l, clicks)
    ON CONFLICT (link_id, dimension, label, hour) DO UPDATE SET clicks = rm_click_buckets.clicks + excluded.clicks
  `.execute(trx);
}

async function upsertLabels(trx: Transaction<Database>, { labels, labelNames }: CounterRows) {
  if (labels.linkIds.length === 0) return;
  await sql`
    INSERT INTO rm_click_labels (link_id, dimension, label, clicks)
    SELECT link_id, (${DIMENSIONS}::text[])[d], (${labelNames}::text[])[l], clicks
    FROM unnest(
      ${arrayLiteral(labels.linkIds)}::uuid[], ${arrayLiteral(labels.dims)}::int[],
      ${arrayLiteral(labels.labels)}::int[], ${arrayLiteral(labels.clicks)}::bigint[]) AS c(link_id, d, l, clicks)
    ON CONFLICT (link_id, dimension, label) DO UPDATE SET clicks = rm_click_labels.clicks + excluded.clicks
  `.execute(trx);
}

async function upsertLinks(trx: Transaction<Database>, { links }: CounterRows) {
  if (links.linkIds.length === 0) return;
  await sql`
    INSERT INTO rm_link_clicks (link_id, clicks, bot_clicks, last_click_at)
    SELECT * FROM unnest(
      ${arrayLiteral(links.linkIds)}::uuid[], ${arrayLiteral(links.clicks)}::bigint[],
      ${arrayLiteral(links.bots)}::bigint[], ${arrayLiteral(links.last)}::timestamptz[])
    ON CONFLICT (link_id) DO UPDATE SET
      clicks = rm_link_clicks.clicks + excluded.clicks,
      bot_clicks = rm_link_clicks.bot_clicks + excluded.bot_clicks,
      last_click_at = GREATEST(rm_link_clicks.last_click_at, excluded.last_click_at)
  `.execute(trx);
}
