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
import { addToReadModel, arrayLiteral, HOUR_MS, type ParsedClick, tally } from './counters';
import { lockLabelsThrough, rollUpLabels } from './label-rollup';

export { type ClickDimension, clickDimensions, TOTAL_BUCKET } from './counters';

/** The consumer group, and its key in `click_consumer_offsets`. */
export const ANALYTICS_CONSUMER = 'analytics';
/** NOTIFY channel told `<partition> <next offset>` after each committed batch. */
export const CLICKS_PROGRESS_CHANNEL = 'clicks_progress';

/** How long a counted click id is remembered: a re-published twin must arrive within this window. */
export const CLICK_ID_RETENTION_MS = 7 * 24 * HOUR_MS;
const PRUNE_CHUNK = 10_000;
/** Labels come from visitors' headers; a huge one would overflow the index and stall the stream. */
const MAX_LABEL_LENGTH = 200;
const LATEST_CLICK_MS = Date.UTC(9999, 11, 31, 23);

export interface ClickAnalyticsDeps {
  db: Kysely<Database>;
  stream: ClickStream;
  log: Logger;
  /** When given, every committed batch is announced on `clicks_progress` (after commit). */
  notifications?: PgNotifications;
  clock?: () => Date;
}

export interface ClickAnalyticsOptions {
  /**
   * Messages per partition per batch (one transaction each). Large batches are what keeps up with a
   * backlog: a link's clicks in one batch add to its counter rows once.
   */
  maxBatchSize?: number;
  /** Partitions' batches in their own transactions at once (each takes a pooled connection). */
  partitionsConsumedConcurrently?: number;
  /** How often the active consumer forgets click ids older than the retention; 0: never. */
  pruneEveryMs?: number;
  /** How often the active consumer rolls finished hours up into the all-time label counts; 0: never. */
  rollUpEveryMs?: number;
}

const DEFAULT_BATCH_SIZE = 5_000;
const DEFAULT_CONCURRENCY = 2;
const ROLL_UP_EVERY_MS = 5 * 60_000;

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
  private readonly timers: NodeJS.Timeout[] = [];
  private maintenance: Promise<unknown> | undefined;
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
      maxBatchSize: this.options.maxBatchSize ?? DEFAULT_BATCH_SIZE,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? DEFAULT_CONCURRENCY,
      startOffsets: () => this.loadOffsets(),
      eachBatch: (batch) => this.applyBatch(batch),
      onError: (error) => this.onError(error),
    });
    this.consumer = consumer;
    void consumer.active.then(() => {
      if (this.consumer === consumer) this.state = 'active';
    });
    this.schedule(this.options.pruneEveryMs ?? HOUR_MS, 'pruning click ids', () => this.pruneClickIds());
    this.schedule(this.options.rollUpEveryMs ?? ROLL_UP_EVERY_MS, 'rolling up click labels', () =>
      this.rollUpLabels(),
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const consumer = this.consumer;
    this.consumer = undefined;
    await consumer?.stop();
    await this.maintenance;
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

  /**
   * Folds the hours before the previous one into the all-time label counts (the hour just ended is left
   * to its stragglers a while longer). Returns the number of label rows added to.
   */
  rollUpLabels(now = this.clock()): Promise<number> {
    const through = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS;
    return rollUpLabels(this.deps.db, new Date(through));
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
      const labelsThroughMs = await lockLabelsThrough(trx);
      const uncounted = await keepUncounted(trx, clicks, countedAt);
      await addToReadModel(trx, tally(uncounted, labelsThroughMs));
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

  /** Runs `task` every `everyMs` while this member is the active one, never two at once; 0: never. */
  private schedule(everyMs: number, what: string, task: () => Promise<unknown>): void {
    if (everyMs <= 0) return;
    const timer = setInterval(() => {
      if (this.state !== 'active' || this.maintenance) return;
      this.maintenance = task()
        .catch((error: unknown) => this.deps.log.error({ err: error }, `${what} failed`))
        .finally(() => {
          this.maintenance = undefined;
        });
    }, everyMs);
    timer.unref();
    this.timers.push(timer);
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
  // Beyond year 9999 an ISO time has six digits, which PostgreSQL would refuse: the batch would never pass.
  if (!(atMs >= 0 && atMs <= LATEST_CLICK_MS)) return undefined;
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
    SELECT id, ${countedAt}::timestamptz FROM unnest(${arrayLiteral(clicks.map((c) => c.id))}::uuid[]) AS id
    ON CONFLICT (click_id) DO NOTHING
    RETURNING click_id`.execute(trx);
  const fresh = new Set(rows.map((row) => row.click_id));
  return clicks.filter((click) => fresh.has(click.id));
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
