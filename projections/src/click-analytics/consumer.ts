import { clickSchema } from '@sniplink/contracts';
import type {
  ClickStream,
  ConsumedBatch,
  ConsumedMessage,
  Consumer,
  Database,
  Logger,
  Offsets,
  PgNotifications,
} from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';

/** The consumer group, and its key in `click_consumer_offsets`. */
export const ANALYTICS_CONSUMER = 'analytics';
/** NOTIFY channel told `<partition> <next offset>` after each committed batch. */
export const CLICKS_PROGRESS_CHANNEL = 'clicks_progress';
export const clickDimensions = ['device', 'referrer', 'country', 'browser', 'os'] as const;
export type ClickDimension = (typeof clickDimensions)[number];
/** The hourly bucket that counts every human click, whatever its labels. */
export const TOTAL_BUCKET = { dimension: 'total', label: 'all' } as const;

const HOUR_MS = 3_600_000;
/** How long a counted click id is remembered: a re-published twin must arrive within this window. */
export const CLICK_ID_RETENTION_MS = 7 * 24 * HOUR_MS;
const PRUNE_CHUNK = 10_000;
/** Labels come from visitors' headers; a huge one would overflow the index and stall the stream. */
const MAX_LABEL_LENGTH = 200;

export interface ClickAnalyticsDeps {
  db: Kysely<Database>;
  stream: ClickStream;
  log: Logger;
  /** When given, every committed batch is announced on `clicks_progress` (after commit). */
  notifications?: PgNotifications;
  clock?: () => Date;
}

export interface ClickAnalyticsOptions {
  /** Messages per partition per batch (one transaction each). */
  maxBatchSize?: number;
  /** How often the active consumer forgets click ids older than the retention; 0: never. */
  pruneEveryMs?: number;
}

export type ClickAnalyticsState = 'stopped' | 'standby' | 'active';

export interface ClickAnalyticsStatus {
  state: ClickAnalyticsState;
  /** Partition -> next offset, as committed with the counters (partitions not read yet are absent). */
  offsets: Offsets;
  /** Since start: clicks counted (humans and bots), re-published clicks dropped, malformed messages skipped. */
  counted: number;
  duplicates: number;
  rejected: number;
}

export class OffsetMovedError extends Error {
  constructor(readonly partition: number) {
    super(`Analytics offset of partition ${partition} was moved by another consumer; reloading.`);
    this.name = 'OffsetMovedError';
  }
}

interface ParsedClick {
  id: string;
  linkId: string;
  atMs: number;
  bot: boolean;
  labels: Record<ClickDimension, string>;
}

interface BucketCount {
  linkId: string;
  hourMs: number;
  dimension: string;
  label: string;
  clicks: number;
}

interface LinkCount {
  linkId: string;
  clicks: number;
  botClicks: number;
  lastClickMs: number | null;
}

type LabelCount = Omit<BucketCount, 'hourMs'>;

interface Tally {
  buckets: Map<string, BucketCount>;
  labels: Map<string, LabelCount>;
  links: Map<string, LinkCount>;
}

/**
 * The click analytics read model, fed from the click stream as consumer group `analytics`. Each batch is
 * one transaction that records the click ids (a re-published click finds its id and counts nothing), adds
 * the new clicks to the counters and stores the partition's next offset; on start it seeks to the stored
 * offsets. A crash at any point therefore neither loses nor doubles a click (ARCHITECTURE section 6).
 */
export class ClickAnalytics {
  private consumer: Consumer | undefined;
  private state: ClickAnalyticsState = 'stopped';
  private offsets: Offsets = new Map();
  private readonly counters = { counted: 0, duplicates: 0, rejected: 0 };
  private pruneTimer: NodeJS.Timeout | undefined;
  private pruning: Promise<unknown> | undefined;
  private readonly clock: () => Date;

  constructor(
    private readonly deps: ClickAnalyticsDeps,
    private readonly options: ClickAnalyticsOptions = {},
  ) {
    this.clock = deps.clock ?? (() => new Date());
  }

  start(): void {
    if (this.consumer) return;
    this.state = 'standby';
    const consumer = this.deps.stream.consume({
      groupId: ANALYTICS_CONSUMER,
      autoCommit: false,
      maxBatchSize: this.options.maxBatchSize ?? 1_000,
      startOffsets: () => this.loadOffsets(),
      eachBatch: (batch) => this.applyBatch(batch),
      onError: (error) => this.onError(error),
    });
    this.consumer = consumer;
    void consumer.active.then(() => {
      if (this.consumer === consumer) this.state = 'active';
    });
    this.schedulePruning();
  }

  async stop(): Promise<void> {
    clearInterval(this.pruneTimer);
    this.pruneTimer = undefined;
    const consumer = this.consumer;
    this.consumer = undefined;
    await consumer?.stop();
    await this.pruning;
    this.state = 'stopped';
  }

  status(): ClickAnalyticsStatus {
    return { state: this.state, offsets: new Map(this.offsets), ...this.counters };
  }

  /** Forgets click ids counted longer ago than the retention, in chunks (no long-held locks). */
  async pruneClickIds(now = this.clock()): Promise<number> {
    const before = new Date(now.getTime() - CLICK_ID_RETENTION_MS);
    let deleted = 0;
    for (;;) {
      const result = await sql`
        DELETE FROM rm_click_ids WHERE click_id IN (
          SELECT click_id FROM rm_click_ids WHERE counted_at < ${before} LIMIT ${PRUNE_CHUNK})`.execute(
        this.deps.db,
      );
      const chunk = Number(result.numAffectedRows ?? 0n);
      deleted += chunk;
      if (chunk < PRUNE_CHUNK) return deleted;
    }
  }

  /** Called each time this member becomes the group's active one: seek to what the counters include. */
  private async loadOffsets(): Promise<Offsets> {
    const rows = await this.deps.db
      .selectFrom('click_consumer_offsets')
      .select(['partition', 'next_offset'])
      .where('consumer', '=', ANALYTICS_CONSUMER)
      .execute();
    this.offsets = new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
    // A copy: the stream advances the map it is given, ours moves only with our commits.
    return new Map(this.offsets);
  }

  private async applyBatch(batch: ConsumedBatch): Promise<void> {
    const { clicks, rejected } = parseBatch(batch.messages);
    if (rejected.length > 0) {
      this.deps.log.warn(
        { partition: batch.partition, offsets: rejected },
        'skipped malformed click messages',
      );
    }
    const expected = this.offsets.get(batch.partition) ?? 0n;
    const countedAt = this.clock();
    const fresh = await this.deps.db.transaction().execute(async (trx) => {
      const uncounted = await keepUncounted(trx, clicks, countedAt);
      await addToReadModel(trx, tally(uncounted));
      await storeNextOffset(trx, batch.partition, expected, batch.nextOffset);
      return uncounted;
    });
    this.offsets.set(batch.partition, batch.nextOffset);
    this.counters.counted += fresh.length;
    this.counters.duplicates += batch.messages.length - rejected.length - fresh.length;
    this.counters.rejected += rejected.length;
    await this.deps.notifications?.publish(CLICKS_PROGRESS_CHANNEL, `${batch.partition} ${batch.nextOffset}`);
  }

  private onError(error: unknown): void {
    // Another member took the partition over: the stream reloads our offsets, nothing was written.
    if (error instanceof OffsetMovedError) this.deps.log.warn({ partition: error.partition }, error.message);
    else this.deps.log.error({ err: error }, 'click analytics batch failed; retrying');
  }

  private schedulePruning(): void {
    const every = this.options.pruneEveryMs ?? HOUR_MS;
    if (every <= 0) return;
    this.pruneTimer = setInterval(() => {
      if (this.state !== 'active' || this.pruning) return;
      this.pruning = this.pruneClickIds()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'pruning click ids failed'))
        .finally(() => {
          this.pruning = undefined;
        });
    }, every);
    this.pruneTimer.unref();
  }
}

/** Valid clicks (ids lower-cased, repeats within the batch dropped) and the offsets of malformed ones. */
function parseBatch(messages: ConsumedMessage[]): { clicks: ParsedClick[]; rejected: string[] } {
  const clicks = new Map<string, ParsedClick>();
  const rejected: string[] = [];
  for (const message of messages) {
    const click = parseClick(message.value);
    if (!click) rejected.push(String(message.offset));
    else if (!clicks.has(click.id)) clicks.set(click.id, click);
  }
  return { clicks: [...clicks.values()], rejected };
}

function parseClick(value: unknown): ParsedClick | undefined {
  const parsed = clickSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const click = parsed.data;
  const atMs = Date.parse(click.at);
  if (Number.isNaN(atMs)) return undefined;
  return {
    // Postgres answers uuids in lower case; the same link in two spellings must be one counter row.
    id: click.id.toLowerCase(),
    linkId: click.linkId.toLowerCase(),
    atMs,
    bot: click.bot,
    labels: {
      device: click.device,
      referrer: labelOf(click.referrer),
      country: labelOf(click.country),
      browser: labelOf(click.browser),
      os: labelOf(click.os),
    },
  };
}

function labelOf(value: string): string {
  const label = value.replaceAll('\u0000', '').slice(0, MAX_LABEL_LENGTH);
  return label === '' ? 'Unknown' : label;
}

/** Records the ids; only the clicks whose id was not there yet are returned (and counted). */
async function keepUncounted(
  trx: Transaction<Database>,
  clicks: ParsedClick[],
  countedAt: Date,
): Promise<ParsedClick[]> {
  if (clicks.length === 0) return [];
  const { rows } = await sql<{ click_id: string }>`
    INSERT INTO rm_click_ids (click_id, counted_at)
    SELECT id, ${countedAt}::timestamptz FROM unnest(${clicks.map((c) => c.id)}::uuid[]) AS id
    ON CONFLICT (click_id) DO NOTHING
    RETURNING click_id`.execute(trx);
  const fresh = new Set(rows.map((row) => row.click_id));
  return clicks.filter((click) => fresh.has(click.id));
}

/** Sums the clicks per counter row in memory, so each table takes one upsert per batch. */
function tally(clicks: ParsedClick[]): Tally {
  const result: Tally = { buckets: new Map(), labels: new Map(), links: new Map() };
  for (const click of clicks) {
    countLink(result.links, click);
    if (click.bot) continue;
    const hourMs = Math.floor(click.atMs / HOUR_MS) * HOUR_MS;
    addOne(result.buckets, { linkId: click.linkId, hourMs, ...TOTAL_BUCKET, clicks: 0 });
    for (const dimension of clickDimensions) {
      const label = click.labels[dimension];
      addOne(result.buckets, { linkId: click.linkId, hourMs, dimension, label, clicks: 0 });
      addOne(result.labels, { linkId: click.linkId, dimension, label, clicks: 0 });
    }
  }
  return result;
}

function countLink(links: Map<string, LinkCount>, click: ParsedClick): void {
  let link = links.get(click.linkId);
  if (!link) {
    link = { linkId: click.linkId, clicks: 0, botClicks: 0, lastClickMs: null };
    links.set(click.linkId, link);
  }
  if (click.bot) {
    link.botClicks += 1;
    return;
  }
  link.clicks += 1;
  link.lastClickMs = Math.max(link.lastClickMs ?? click.atMs, click.atMs);
}

/** Adds one click to the counter row `candidate` stands for (it becomes that row when it is the first). */
function addOne<Count extends LabelCount & { hourMs?: number }>(
  counts: Map<string, Count>,
  candidate: Count,
): void {
  // NUL never occurs in a label (labelOf strips it), so it cannot make two keys collide.
  const key = `${candidate.linkId}\u0000${candidate.dimension}\u0000${candidate.label}\u0000${candidate.hourMs ?? ''}`;
  const count = counts.get(key) ?? candidate;
  count.clicks += 1;
  counts.set(key, count);
}

async function addToReadModel(trx: Transaction<Database>, counts: Tally): Promise<void> {
  await upsertBuckets(trx, [...counts.buckets.values()]);
  await upsertLabels(trx, [...counts.labels.values()]);
  await upsertLinks(trx, [...counts.links.values()]);
}

async function upsertBuckets(trx: Transaction<Database>, rows: BucketCount[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO rm_click_buckets (link_id, hour, dimension, label, clicks)
    SELECT * FROM unnest(
      ${rows.map((r) => r.linkId)}::uuid[], ${rows.map((r) => new Date(r.hourMs).toISOString())}::timestamptz[],
      ${rows.map((r) => r.dimension)}::text[], ${rows.map((r) => r.label)}::text[],
      ${rows.map((r) => r.clicks)}::bigint[])
    ON CONFLICT (link_id, dimension, label, hour) DO UPDATE SET clicks = rm_click_buckets.clicks + excluded.clicks
  `.execute(trx);
}

async function upsertLabels(trx: Transaction<Database>, rows: LabelCount[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO rm_click_labels (link_id, dimension, label, clicks)
    SELECT * FROM unnest(
      ${rows.map((r) => r.linkId)}::uuid[], ${rows.map((r) => r.dimension)}::text[],
      ${rows.map((r) => r.label)}::text[], ${rows.map((r) => r.clicks)}::bigint[])
    ON CONFLICT (link_id, dimension, label) DO UPDATE SET clicks = rm_click_labels.clicks + excluded.clicks
  `.execute(trx);
}

async function upsertLinks(trx: Transaction<Database>, rows: LinkCount[]): Promise<void> {
  if (rows.length === 0) return;
  const lastClicks = rows.map((r) => (r.lastClickMs === null ? null : new Date(r.lastClickMs).toISOString()));
  await sql`
    INSERT INTO rm_link_clicks (link_id, clicks, bot_clicks, last_click_at)
    SELECT * FROM unnest(
      ${rows.map((r) => r.linkId)}::uuid[], ${rows.map((r) => r.clicks)}::bigint[],
      ${rows.map((r) => r.botClicks)}::bigint[], ${lastClicks}::timestamptz[])
    ON CONFLICT (link_id) DO UPDATE SET
      clicks = rm_link_clicks.clicks + excluded.clicks,
      bot_clicks = rm_link_clicks.bot_clicks + excluded.bot_clicks,
      last_click_at = GREATEST(rm_link_clicks.last_click_at, excluded.last_click_at)
  `.execute(trx);
}

/**
 * Moves the partition's offset from `expected` to `next`, a compare-and-set: if another member moved it
 * meanwhile (a consumer whose group lock was lost), this transaction rolls back instead of overwriting.
 */
async function storeNextOffset(
  trx: Transaction<Database>,
  partition: number,
  expected: bigint,
  next: bigint,
): Promise<void> {
  const { rows } = await sql`
    INSERT INTO click_consumer_offsets (consumer, partition, next_offset)
    VALUES (${ANALYTICS_CONSUMER}, ${partition}, ${String(next)})
    ON CONFLICT (consumer, partition) DO UPDATE SET next_offset = excluded.next_offset
    WHERE click_consumer_offsets.next_offset = ${String(expected)}
    RETURNING 1`.execute(trx);
  if (rows.length === 0) throw new OffsetMovedError(partition);
}
