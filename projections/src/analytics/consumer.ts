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
import {
  forgetPartEnds,
  PART_RETENTION_MS,
  type PartEnds,
  PartFilter,
  publishIdsOf,
  storedPartEnds,
  storePartEnds,
} from './publish-parts';

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
  /**
   * The consumer group on the click stream (default `analytics`). The offsets stored with the counters
   * are the analytics consumer's whatever the group: tests sharing a Kafka broker give each topic its own.
   */
  groupId?: string;
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
  /**
   * Committed since start: clicks counted (humans and bots), repeats dropped (within a batch, or a later
   * copy of a re-sent publish), malformed messages skipped.
   */
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
 * Batches consumed and not written yet: their clicks summed, each partition's offset before and after
 * them, and the publish parts they began counting.
 */
class PendingClicks {
  readonly tally = new ClickTally();
  /** The offsets the flush moves from (compare-and-set) and to. */
  readonly fromOffsets: Offsets = new Map();
  readonly nextOffsets: Offsets = new Map();
  readonly parts: PartEnds = new Map();
  duplicates = 0;
  rejected = 0;

  add(from: bigint, batch: ConsumedBatch, parsed: ParsedBatch): void {
    const { partition } = batch;
    for (const click of parsed.clicks) this.tally.add(click);
    if (!this.fromOffsets.has(partition)) this.fromOffsets.set(partition, from);
    this.nextOffsets.set(partition, batch.nextOffset);
    if (parsed.parts.size > 0) {
      const parts = this.parts.get(partition);
      if (parts) for (const [id, end] of parsed.parts) parts.set(id, end);
      else this.parts.set(partition, parsed.parts);
    }
    this.duplicates += parsed.duplicates;
    this.rejected += parsed.rejected.length;
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
 * stored offsets. Either way no click is lost or doubled (docs/architecture.md, "Analytics"). A publish
 * re-sent under the same id may be in the log twice (Kafka): the publish parts counted are written with
 * the counters and a later copy is skipped (./publish-parts); repeats within a batch are dropped anyway.
 *
 * With the PostgreSQL stream one member of the group reads every partition and the others wait; with
 * Kafka every member reads some partitions, at once. Hence the offsets are moved per partition from
 * where this member's batches began (compare-and-set), loaded again on every assignment after writing
 * what was read, and the maintenance (roll-up, prunes) is safe when two members run it together.
 */
export class ClickAnalytics {
  private consumer: Consumer | undefined;
  private state: ClickAnalyticsState = 'stopped';
  private stopping = false;
  /** Partition -> next offset, as stored with the counters when this member last loaded or wrote it. */
  private offsets: Offsets = new Map();
  /**
   * Partition -> the offset the next batch starts at: after the last batch taken in, or where reading
   * started. Messages below it were taken in already (a stream that delivers them again is not believed).
   */
  private nextToRead: Offsets = new Map();
  private readonly counters = { counted: 0, duplicates: 0, rejected: 0 };
  private readonly timers: NodeJS.Timeout[] = [];
  private maintenance: Promise<unknown> | undefined;
  private readonly clock: () => Date;
  private pending = new PendingClicks();
  /** What the flush under way writes, until it has committed: its publish parts are still "known". */
  private flushing: PendingClicks | undefined;
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
    this.schedule(this.options.pruneEveryMs ?? PRUNE_EVERY_MS, 'forgetting counted publish parts', () =>
      this.forgetPublishParts(),
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
   * to its stragglers a while longer). Returns the number of label rows added to. Two members may run it
   * at once (Kafka): the second waits for the first's lock, then finds the hours folded and adds nothing.
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
    if (retentionMs <= 0) return 0;
    // The stored offsets of every partition, not this member's view: with Kafka the others count other
    // partitions (and may have moved past what this member last loaded).
    const counted = await storedAnalyticsOffsets(this.deps.db);
    if (counted.size === 0) return 0;
    const deleted = await this.deps.stream.deleteRecords(counted, {
      publishedBefore: new Date(now.getTime() - retentionMs),
    });
    if (deleted > 0)
      this.deps.log.info({ deleted }, 'deleted counted clicks past their retention from the click log');
    return deleted;
  }

  /**
   * Forgets the publish parts counted over a day ago (the port's promise for publish ids: a copy re-sent
   * later counts again). Returns how many went.
   */
  forgetPublishParts(now = this.clock()): Promise<number> {
    return forgetPartEnds(this.deps.db, new Date(now.getTime() - PART_RETENTION_MS));
  }

  private consume(): void {
    this.state = 'standby';
    const epoch = this.epoch;
    const consumer = this.deps.stream.consume({
      groupId: this.options.groupId ?? ANALYTICS_CONSUMER,
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

  /**
   * Called each time this member becomes active, and with Kafka on every new assignment of partitions:
   * writes what was read (a partition handed to another member goes with its counts), then starts each
   * partition where the counters end, or after the batches still pending (a flush that fails reloads).
   */
  private async loadOffsets(): Promise<Offsets> {
    await this.flush();
    this.offsets = await storedAnalyticsOffsets(this.deps.db);
    const start = new Map(this.offsets);
    for (const [partition, next] of this.pending.nextOffsets) start.set(partition, next);
    this.nextToRead = start;
    // A copy: the stream advances the map it is given.
    return new Map(start);
  }

  /** Adds a batch to what is pending, and flushes it once enough is pending. */
  private async accumulate(batch: ConsumedBatch, epoch: number): Promise<void> {
    // A flush failed since this consumer started: it is being replaced, and the batch will come again.
    if (epoch !== this.epoch) return;
    const { partition } = batch;
    const from = this.nextToRead.get(partition) ?? 0n;
    const messages = batch.nextOffset <= from ? [] : unreadMessages(batch.messages, from);
    if (messages.length === 0) return;
    const ids = publishIdsOf(messages);
    const known = ids && (await this.knownPartEnds(partition, ids));
    // A flush failed while the stored parts were read: what it held is dropped, and so is this batch.
    if (epoch !== this.epoch) return;
    const parsed = parseBatch(messages, this.labelSets, known && new PartFilter(known));
    if (parsed.rejected.length > 0) {
      this.deps.log.warn({ partition, offsets: parsed.rejected }, 'skipped malformed click messages');
    }
    this.pending.add(from, batch, parsed);
    this.nextToRead.set(partition, batch.nextOffset);
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

  /**
   * Where the counted copies of these publishes end on the partition: the parts pending or being
   * written, looked up before the stored ones (a flush that commits in between is then found stored).
   */
  private async knownPartEnds(partition: number, ids: Set<string>): Promise<Map<string, bigint>> {
    const known = new Map<string, bigint>();
    const unknown: string[] = [];
    const pending = this.pending.parts.get(partition);
    const flushing = this.flushing?.parts.get(partition);
    for (const id of ids) {
      const end = pending?.get(id) ?? flushing?.get(id);
      if (end === undefined) unknown.push(id);
      else known.set(id, end);
    }
    if (unknown.length > 0) {
      for (const [id, end] of await storedPartEnds(this.deps.db, partition, unknown)) known.set(id, end);
    }
    return known;
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
    this.flushing = pending;
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const labelsThroughMs = await lockLabelsThrough(trx);
        await addToReadModel(trx, pending.tally, labelsThroughMs);
        // In partition order, so that two members that read the same partition while Kafka handed it
        // over wait for each other rather than deadlock; the later one's compare-and-set fails.
        for (const [partition, next] of [...pending.nextOffsets].sort(([a], [b]) => a - b)) {
          await storeNextOffset(trx, partition, pending.fromOffsets.get(partition) ?? 0n, next);
        }
        // After the offsets: a part stored by another member comes with an offset that moved.
        await storePartEnds(trx, pending.parts);
      });
    } catch (error) {
      this.onError(error);
      this.consumeAgainFromStoredOffsets();
      return;
    } finally {
      this.flushing = undefined;
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
    rule: labels.rule === undefined ? '' : String(labels.rule),
  });
}

/** The messages from offset `from` on (sorted by offset, as a batch is). */
function unreadMessages(messages: ConsumedMessage[], from: bigint): ConsumedMessage[] {
  if ((messages[0]?.offset ?? from) >= from) return messages;
  return messages.filter((message) => message.offset >= from);
}

interface ParsedBatch {
  clicks: ParsedClick[];
  /** The offsets of malformed messages. */
  rejected: string[];
  /** Messages not counted: a click repeated within the batch, or a later copy of a publish. */
  duplicates: number;
  /** Publish parts this batch began to count: publish id -> end offset. */
  parts: Map<string, bigint>;
}

/** Valid clicks (repeats within the batch and later copies of a publish dropped), and what was not counted. */
function parseBatch(messages: ConsumedMessage[], labelSets: LabelSets, parts?: PartFilter): ParsedBatch {
  const clicks: ParsedClick[] = [];
  const ids = new Set<string>();
  const rejected: string[] = [];
  let duplicates = 0;
  for (const message of messages) {
    if (parts && !parts.counts(message)) {
      duplicates += 1;
      continue;
    }
    const click = parseClick(message.key, message.value, labelSets);
    if (!click) rejected.push(String(message.offset));
    else if (ids.has(click.id)) duplicates += 1;
    else {
      ids.add(click.id);
      clicks.push(click);
    }
  }
  return { clicks, rejected, duplicates, parts: parts?.added ?? new Map() };
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

/** Partition -> next offset, as stored with the counters. */
async function storedAnalyticsOffsets(db: Kysely<Database>): Promise<Offsets> {
  const rows = await withReadModels(db)
    .selectFrom('click_consumer_offsets')
    .select(['partition', 'next_offset'])
    .where('consumer', '=', ANALYTICS_CONSUMER)
    .execute();
  return new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
}

/**
 * Moves the partition's offset from `expected` (where this member's batches began) to `next`, a
 * compare-and-set: if another member moved it meanwhile (a consumer whose group lock was lost, or with
 * Kafka the member the partition went to), this transaction rolls back instead of overwriting.
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
