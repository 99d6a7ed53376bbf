import {
  type ClickLabels,
  clickLabels,
  isLinkId,
  readClickLine,
  readClickMessage,
} from '@sniplink/contracts';
import type {
  Broadcast,
  ClickStream,
  ConsumedBatch,
  ConsumedMessage,
  Consumer,
  Database,
  Logger,
  Offsets,
} from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import { withReadModels } from '../read-models';
import { addToReadModel, type ClickLabelSet, ClickTally, HOUR_MS, type ParsedClick } from './counters';
import { lockLabelsThrough, rollUpLabels } from './label-rollup';

export { type ClickDimension, clickDimensions, TOTAL_BUCKET } from './counters';

/** The consumer group, and its key in `click_consumer_offsets`. */
export const ANALYTICS_CONSUMER = 'analytics';
/** The broadcast told `<partition> <next offset>` for each partition of a committed flush. */
export const CLICKS_PROGRESS_CHANNEL = 'clicks_progress';

/** Labels come from visitors' headers; a huge one would overflow the index and stall the stream. */
const MAX_LABEL_LENGTH = 200;
const LATEST_CLICK_MS = Date.UTC(9999, 11, 31, 23);

export interface ClickAnalyticsDeps {
  db: Kysely<Database>;
  stream: ClickStream;
  log: Logger;
  /** When given, every committed flush is announced on it, `clicks_progress` (after commit). */
  progress?: Broadcast;
  clock?: () => Date;
}

export interface ClickAnalyticsOptions {
  /** Messages per partition per batch read from the stream. */
  maxBatchSize?: number;
  /** Partitions' batches handled at once. */
  partitionsConsumedConcurrently?: number;
  /**
   * Consumed clicks wait in memory, summed per counter row, and are written with their partitions'
   * offsets in one transaction once no batch has come for this long (the stream has gone quiet)...
   */
  flushWhenQuietMs?: number;
  /** ...or once this many wait (a crash reads them again)... */
  flushAfterClicks?: number;
  /** ...or once the tally holds this many sums (its memory and the next flush grow with them)... */
  flushAfterSums?: number;
  /**
   * ...or once the oldest of them has waited this long, or longer when flushes are dear: the wait is
   * also at least the last flush's duration over `flushCostShare`, so that writing the counters takes
   * at most that share of the time; never more than `longestFlushAfterMs` (the longest a click takes to
   * show under load).
   */
  flushAfterMs?: number;
  flushCostShare?: number;
  longestFlushAfterMs?: number;
  /** How often the active consumer rolls finished hours up into the all-time label counts; 0: never. */
  rollUpEveryMs?: number;
  /**
   * How long a counted click stays in the click log; 0 (the default): for ever. The active consumer
   * deletes what it has counted and is older, every `pruneEveryMs` (default 10 minutes).
   */
  clickLogRetentionMs?: number;
  pruneEveryMs?: number;
}

const DEFAULT_BATCH_SIZE = 5_000;
const DEFAULT_CONCURRENCY = 2;
// A click adds to ~7 counter rows; the clicks of a link summed in memory share them. With 10,000 links
// visited at random, a second's traffic still gives most links a write of their own, and a flush then
// costs the same however long the sums ran: under full load (36,000 clicks/s over 10,000 links) one
// writes ~70,000 rows in 0.5-1.2 s, most of PostgreSQL's CPU. So the sums run for 5 s, or twenty times
// the last flush's duration when that is longer (at most 20 s): the writes take at most a twentieth of
// the time, and a click shows within 5 s whenever flushes are cheap. When the clicks stop, what waits is
// written a quarter of a second later. 100,000 sums are ~18 MB of the click thread's 64 MB heap (179 bytes
// a sum, measured). At most 500,000 clicks wait: /readyz calls a million behind a consumer that cannot keep
// up, and the clicks published while a flush runs come on top.
const DEFAULT_FLUSH_WHEN_QUIET_MS = 250;
const DEFAULT_FLUSH_AFTER_CLICKS = 500_000;
const DEFAULT_FLUSH_AFTER_SUMS = 100_000;
const DEFAULT_FLUSH_AFTER_MS = 5_000;
const DEFAULT_FLUSH_COST_SHARE = 0.05;
const DEFAULT_LONGEST_FLUSH_AFTER_MS = 20_000;
const ROLL_UP_EVERY_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;

export type ClickAnalyticsState = 'stopped' | 'standby' | 'active';

export interface ClickAnalyticsStatus {
  state: ClickAnalyticsState;
  /** Partition -> next offset, as committed with the counters (partitions not read yet are absent). */
  offsets: Offsets;
  /** Committed since start: clicks counted (humans and bots), repeats within a batch dropped, malformed messages skipped. */
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

/** Batches consumed and not written yet: their clicks summed, and each partition's offset after them. */
class PendingClicks {
  readonly tally = new ClickTally();
  readonly nextOffsets: Offsets = new Map();
  duplicates = 0;
  rejected = 0;

  add(batch: ConsumedBatch, clicks: readonly ParsedClick[], rejected: number): void {
    for (const click of clicks) this.tally.add(click);
    this.nextOffsets.set(batch.partition, batch.nextOffset);
    this.duplicates += batch.messages.length - rejected - clicks.length;
    this.rejected += rejected;
  }

  get empty(): boolean {
    return this.nextOffsets.size === 0;
  }
}

/**
 * The click analytics read model, fed from the click stream as consumer group `analytics`. Batches are
 * summed in memory and flushed (counters plus every partition's next offset, compare-and-set) in one
 * transaction; on start it seeks to the stored offsets. A crash before a flush loses only memory: the
 * stream delivers those batches again. A failed flush drops what is pending and consumes again from the
 * stored offsets. Either way no click is lost or doubled (docs/architecture.md, "Analytics"). The stream stores a
 * re-sent publish once, so a click id reaches the log once; repeats within a batch are dropped anyway.
 */
export class ClickAnalytics {
  private consumer: Consumer | undefined;
  private state: ClickAnalyticsState = 'stopped';
  private stopping = false;
  private offsets: Offsets = new Map();
  private readonly counters = { counted: 0, duplicates: 0, rejected: 0 };
  private readonly timers: NodeJS.Timeout[] = [];
  private maintenance: Promise<unknown> | undefined;
  private readonly clock: () => Date;
  private pending = new PendingClicks();
  private flushTimer: NodeJS.Timeout | undefined;
  private quietTimer: NodeJS.Timeout | undefined;
  /** The flushes, one after the other. */
  private flushes: Promise<void> = Promise.resolve();
  /** Replacing the stream consumer after a failed flush. */
  private restarts: Promise<void> = Promise.resolve();
  /** Moves on each failed flush: batches of a consumer started before it are read again, not added. */
  private epoch = 0;
  private readonly labelSets = new LabelSets();
  /** How long the last successful flush took, from its first statement to its commit. */
  private lastFlushMs = 0;

  constructor(
    private readonly deps: ClickAnalyticsDeps,
    private readonly options: ClickAnalyticsOptions = {},
  ) {
    this.clock = deps.clock ?? (() => new Date());
  }

  start(): void {
    if (this.consumer) return;
    this.stopping = false;
    this.consume();
    this.schedule(this.options.rollUpEveryMs ?? ROLL_UP_EVERY_MS, 'rolling up click labels', () =>
      this.rollUpLabels(),
    );
    if (this.options.clickLogRetentionMs)
      this.schedule(
        this.options.pruneEveryMs ?? PRUNE_EVERY_MS,
        'deleting counted clicks from the click log',
        () => this.pruneClickLog(),
      );
  }

  /** Stops reading, then writes what was read. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.restarts;
    const consumer = this.consumer;
    this.consumer = undefined;
    await consumer?.stop();
    await this.flush();
    await this.restarts;
    await this.maintenance;
    this.state = 'stopped';
  }

  status(): ClickAnalyticsStatus {
    return { state: this.state, offsets: new Map(this.offsets), ...this.counters };
  }

  /**
   * Folds the hours before the previous one into the all-time label counts (the hour just ended is left
   * to its stragglers a while longer). Returns the number of label rows added to.
   */
  rollUpLabels(now = this.clock()): Promise<number> {
    const through = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS;
    return rollUpLabels(this.deps.db, new Date(through));
  }

  /**
   * Deletes from the click log the clicks that are counted (below the offsets stored with the counters)
   * and were published longer than the retention ago. Returns how many went; 0 when clicks are kept.
   */
  async pruneClickLog(now = this.clock()): Promise<number> {
    const retentionMs = this.options.clickLogRetentionMs ?? 0;
    if (retentionMs <= 0 || this.offsets.size === 0) return 0;
    const deleted = await this.deps.stream.deleteRecords(new Map(this.offsets), {
      publishedBefore: new Date(now.getTime() - retentionMs),
    });
    if (deleted > 0)
      this.deps.log.info({ deleted }, 'deleted counted clicks past their retention from the click log');
    return deleted;
  }

  private consume(): void {
    this.state = 'standby';
    const epoch = this.epoch;
    const consumer = this.deps.stream.consume({
      groupId: ANALYTICS_CONSUMER,
      autoCommit: false,
      maxBatchSize: this.options.maxBatchSize ?? DEFAULT_BATCH_SIZE,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? DEFAULT_CONCURRENCY,
      startOffsets: () => this.loadOffsets(),
      eachBatch: (batch) => this.accumulate(batch, epoch),
      onError: (error) => this.onError(error),
    });
    this.consumer = consumer;
    void consumer.active.then(() => {
      if (this.consumer === consumer) this.state = 'active';
    });
  }

  /** Called each time this member becomes the group's active one: seek to what the counters include. */
  private async loadOffsets(): Promise<Offsets> {
    const rows = await withReadModels(this.deps.db)
      .selectFrom('click_consumer_offsets')
      .select(['partition', 'next_offset'])
      .where('consumer', '=', ANALYTICS_CONSUMER)
      .execute();
    this.offsets = new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
    // A copy: the stream advances the map it is given, ours moves only with our commits.
    return new Map(this.offsets);
  }

  /** Adds a batch to what is pending, and flushes it once enough is pending. */
  private async accumulate(batch: ConsumedBatch, epoch: number): Promise<void> {
    // A flush failed since this consumer started: it is being replaced, and the batch will come again.
    if (epoch !== this.epoch) return;
    const { clicks, rejected } = parseBatch(batch.messages, this.labelSets);
    if (rejected.length > 0) {
      this.deps.log.warn(
        { partition: batch.partition, offsets: rejected },
        'skipped malformed click messages',
      );
    }
    this.pending.add(batch, clicks, rejected.length);
    this.flushTimer ??= setTimeout(() => void this.flush(), this.flushAfterMs());
    if (this.quietTimer) this.quietTimer.refresh();
    else
      this.quietTimer = setTimeout(
        () => void this.flush(),
        this.options.flushWhenQuietMs ?? DEFAULT_FLUSH_WHEN_QUIET_MS,
      );
    const { tally } = this.pending;
    if (
      tally.clicks >= (this.options.flushAfterClicks ?? DEFAULT_FLUSH_AFTER_CLICKS) ||
      tally.sums >= (this.options.flushAfterSums ?? DEFAULT_FLUSH_AFTER_SUMS)
    ) {
      // Reading goes on while this flush runs, but not past a second full one: at most one waits.
      const previous = this.flushes;
      void this.flush();
      await previous;
    }
  }

  /** How long the first of the clicks pending may wait for a timed flush (`flushAfterMs`). */
  private flushAfterMs(): number {
    const { options } = this;
    return flushWaitMs(this.lastFlushMs, {
      flushAfterMs: options.flushAfterMs ?? DEFAULT_FLUSH_AFTER_MS,
      flushCostShare: options.flushCostShare ?? DEFAULT_FLUSH_COST_SHARE,
      longestFlushAfterMs: options.longestFlushAfterMs ?? DEFAULT_LONGEST_FLUSH_AFTER_MS,
    });
  }

  /** Queues a flush of what will be pending when the flushes before it are done. Never rejects. */
  private flush(): Promise<void> {
    this.flushes = this.flushes.then(() => this.flushPending());
    return this.flushes;
  }

  private async flushPending(): Promise<void> {
    const pending = this.takePending();
    if (pending.empty) return;
    const started = performance.now();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const labelsThroughMs = await lockLabelsThrough(trx);
        await addToReadModel(trx, pending.tally, labelsThroughMs);
        for (const [partition, next] of pending.nextOffsets) {
          await storeNextOffset(trx, partition, this.offsets.get(partition) ?? 0n, next);
        }
      });
    } catch (error) {
      this.onError(error);
      this.consumeAgainFromStoredOffsets();
      return;
    }
    this.lastFlushMs = performance.now() - started;
    for (const [partition, next] of pending.nextOffsets) this.offsets.set(partition, next);
    this.counters.counted += pending.tally.clicks;
    this.counters.duplicates += pending.duplicates;
    this.counters.rejected += pending.rejected;
    await this.announce(pending.nextOffsets);
  }

  private takePending(): PendingClicks {
    clearTimeout(this.flushTimer);
    clearTimeout(this.quietTimer);
    this.flushTimer = undefined;
    this.quietTimer = undefined;
    const pending = this.pending;
    this.pending = new PendingClicks();
    return pending;
  }

  /**
   * The stream counts the batches of a failed flush (and those read since) as done: drop them and read
   * again from the offsets stored with the counters, with a new stream consumer. Not awaited by the
   * flush: stopping the old consumer waits for its batch, which may be waiting for this flush.
   */
  private consumeAgainFromStoredOffsets(): void {
    this.epoch += 1;
    this.takePending();
    this.restarts = this.restarts.then(async () => {
      const stale = this.consumer;
      this.consumer = undefined;
      await stale?.stop();
      if (!this.stopping) this.consume();
    });
  }

  private async announce(offsets: Offsets): Promise<void> {
    const { progress, log } = this.deps;
    if (!progress) return;
    await Promise.all(
      [...offsets].map(([partition, next]) =>
        progress
          .publish(`${partition} ${next}`)
          .catch((error: unknown) => log.warn({ err: error }, 'could not announce click analytics progress')),
      ),
    );
  }

  private onError(error: unknown): void {
    // Another member took the partition over: we read again from the stored offsets, nothing was written.
    if (error instanceof OffsetMovedError) this.deps.log.warn({ partition: error.partition }, error.message);
    else
      this.deps.log.error(
        { err: error },
        'click analytics flush failed; reading again from the stored offsets',
      );
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

/**
 * The wait of a timed flush: `flushAfterMs`, or the last flush's duration over `flushCostShare` when that
 * is longer, and never more than `longestFlushAfterMs`.
 */
export function flushWaitMs(
  lastFlushMs: number,
  pacing: { flushAfterMs: number; flushCostShare: number; longestFlushAfterMs: number },
): number {
  const paced = Math.max(pacing.flushAfterMs, lastFlushMs / pacing.flushCostShare);
  return Math.min(paced, Math.max(pacing.longestFlushAfterMs, pacing.flushAfterMs));
}

/**
 * The label sets of click lines seen lately, checked and cleaned once: the clicks of a link's visitors
 * repeat a few sets thousands of times, and taking each click's labels apart cost more than the rest of
 * counting it. Forgets them all past `LABEL_SETS_KEPT` (unusual traffic: every click a new set).
 */
class LabelSets {
  private readonly known = new Map<string, ClickLabelSet | null>();
  /** The fields looked up last, and their set: consecutive clicks share them more often than not. */
  private lastFields = '';
  private lastLabels: ClickLabelSet | null = null;

  /** The label set of a line's label fields; undefined when they are malformed. */
  of(fields: string): ClickLabelSet | undefined {
    if (fields === this.lastFields) return this.lastLabels ?? undefined;
    let labels = this.known.get(fields);
    if (labels === undefined) {
      const parsed = clickLabels(fields);
      labels = parsed ? labelSetOf(parsed) : null;
      if (this.known.size >= LABEL_SETS_KEPT) this.known.clear();
      this.known.set(fields, labels);
    }
    this.lastFields = fields;
    this.lastLabels = labels;
    return labels ?? undefined;
  }
}

const LABEL_SETS_KEPT = 10_000;

function labelSetOf(labels: ClickLabels): ClickLabelSet {
  return Object.freeze({
    device: labels.device,
    referrer: labelOf(labels.referrer),
    country: labelOf(labels.country),
    browser: labelOf(labels.browser),
    os: labelOf(labels.os),
  });
}

/** Valid clicks (repeats within the batch dropped) and the offsets of malformed ones. */
function parseBatch(
  messages: ConsumedMessage[],
  labelSets: LabelSets,
): { clicks: ParsedClick[]; rejected: string[] } {
  const clicks: ParsedClick[] = [];
  const ids = new Set<string>();
  const rejected: string[] = [];
  for (const message of messages) {
    const click = parseClick(message.key, message.value, labelSets);
    if (!click) rejected.push(String(message.offset));
    else if (!ids.has(click.id)) {
      ids.add(click.id);
      clicks.push(click);
    }
  }
  return { clicks, rejected };
}

function parseClick(key: string, value: unknown, labelSets: LabelSets): ParsedClick | undefined {
  if (typeof value !== 'string') return parseClickObject(key, value);
  const line = readClickLine(value);
  const labels = line && labelSets.of(line.labels);
  if (!line || !labels || !isLinkId(key) || !isStorableTime(line.atMs)) return undefined;
  // Postgres answers uuids in lower case; the same link in two spellings must be one counter row.
  return new Click(line.id, key.toLowerCase(), line.atMs, line.bot, labels);
}

/** A class rather than an object literal, as the click stream's ReadMessage (V8's pretenuring). */
class Click implements ParsedClick {
  constructor(
    readonly id: string,
    readonly linkId: string,
    readonly atMs: number,
    readonly bot: boolean,
    readonly labels: ClickLabelSet,
  ) {}
}

/** A click published before the line format: rare, so its labels are not remembered. */
function parseClickObject(key: string, value: unknown): ParsedClick | undefined {
  const click = readClickMessage(key, value);
  if (!click || !isStorableTime(click.atMs)) return undefined;
  return {
    id: click.id,
    linkId: click.linkId.toLowerCase(),
    atMs: click.atMs,
    bot: click.bot,
    labels: labelSetOf(click),
  };
}

/** Beyond year 9999 an ISO time has six digits, which PostgreSQL would refuse: the batch would never pass. */
function isStorableTime(atMs: number): boolean {
  return atMs >= 0 && atMs <= LATEST_CLICK_MS;
}

function labelOf(value: string): string {
  const label = value.replaceAll('\u0000', '').slice(0, MAX_LABEL_LENGTH);
  return label === '' ? 'Unknown' : label;
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
