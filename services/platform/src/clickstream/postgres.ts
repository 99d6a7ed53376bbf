import type pg from 'pg';
import { type NotifiedPoolOptions, type PgNotifications, Signal, Wakeup } from '../db/notifications';
import type * as port from './port';
import { partitionFor } from './port';

const PUBLISHED_CHANNEL = 'cs_published';
/** The SQLSTATE `cs_publish` raises when a partition's row is missing. */
const PARTITIONS_MISSING = 'SLP01';

export interface PostgresClickStreamOptions extends NotifiedPoolOptions {
  partitionCount: number;
}

interface ChunkRow {
  partition: number;
  first_offset: string;
  /** `[[key, value], ...]` as JSON text, for offsets first_offset, first_offset + 1, ... */
  messages: string;
  /** Epoch ms: a number parses much faster than a timestamptz. */
  published_ms: number;
}

/** Messages per stored chunk at most: bounds what a fetch reads beyond its `max`. */
const MAX_CHUNK = 1_000;
/** How long publish ids are remembered, and how often the old ones are deleted. */
const PUBLISH_ID_RETENTION = '1 day';
const PUBLISH_ID_PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The click log on PostgreSQL: an append-only table of chunks, one row per partition per publish holding
 * its consecutive offsets (a row per message made the server's per-row costs the largest part of a
 * redirect). A publish locks the rows of the partitions it writes (in partition order, so publishers
 * never deadlock) to draw contiguous offsets; a later publish to a partition therefore commits after an
 * earlier one and a reader never skips an offset. One consumer per group is active at a time (an
 * advisory lock); the others wait as standbys.
 *
 * The statements of a publish and a fetch are named, so each connection parses and plans them once rather
 * than on every call (bench/RESULTS.md's tenth
 * session, in git history: `git show c47accaf9d08:bench/RESULTS.md`); a pooler in transaction mode would break them.
 */
export class PostgresClickStream<Value = unknown> implements port.ClickStream<Value> {
  readonly partitionCount: number;
  private readonly pool: pg.Pool;
  private readonly notifications: PgNotifications;
  private readonly idlePollMs: number;
  private ready: Promise<void> | undefined;
  private publishIdsPrunedAt = 0;

  constructor(options: PostgresClickStreamOptions) {
    this.pool = options.pool;
    this.notifications = options.notifications;
    this.partitionCount = options.partitionCount;
    this.idlePollMs = options.idlePollMs ?? 1_000;
  }

  /**
   * One statement (`cs_publish`, see its migration) that claims the publish id, draws the offsets and
   * stores the chunks. The messages are encoded before anything waits and go out with that statement:
   * the thread holds a batch for one round trip, not six, so few are caught by a young-generation
   * collection and moved to the old generation (whose growth set the pace of full collections).
   */
  publish(messages: port.StreamMessage<Value>[], options: port.PublishOptions = {}): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    let chunks: EncodedChunks;
    try {
      chunks = encodeChunks(messages, this.partitionCount);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.publishChunks(chunks, options.id);
  }

  private async publishChunks(chunks: EncodedChunks, publishId: string | undefined): Promise<void> {
    await this.ensurePartitions();
    const placeholders = chunks.json.map((_, i) => `$${i + 6}::text`).join(', ');
    try {
      await this.pool.query({
        // The text depends only on the number of chunks (usually the partition count): a few statements.
        name: `cs-publish-${chunks.json.length}`,
        text: `SELECT cs_publish($1, $2::int[], $3::bigint[], $4::int[], $5::bigint[], ARRAY[${placeholders}])`,
        values: [
          publishId ?? null,
          chunks.partitions,
          chunks.counts,
          chunks.chunkPartitions,
          chunks.chunkCounts,
          ...chunks.json,
        ],
      });
    } catch (error) {
      // A partition row is missing (deleted by hand?): set them up again rather than drop messages.
      if ((error as { code?: string }).code === PARTITIONS_MISSING) this.ready = undefined;
      throw error;
    }
    // After the commit, not inside it: a notifying transaction holds a global lock through its commit.
    this.notifications.wakeLocal(PUBLISHED_CHANNEL);
    await this.pool
      .query({ name: 'cs-notify', text: `SELECT pg_notify('${PUBLISHED_CHANNEL}', '')` })
      .catch(() => {});
    if (publishId !== undefined) this.prunePublishIds();
  }

  /** Forgets publish ids older than a day, at most every 10 minutes; a failure waits for the next time. */
  private prunePublishIds(): void {
    if (Date.now() - this.publishIdsPrunedAt < PUBLISH_ID_PRUNE_EVERY_MS) return;
    this.publishIdsPrunedAt = Date.now();
    this.pool
      .query(`DELETE FROM cs_publishes WHERE published_at < now() - interval '${PUBLISH_ID_RETENTION}'`)
      .catch(() => {});
  }

  consume(options: port.ConsumeOptions<Value>): port.Consumer {
    return new PostgresConsumer(this, options);
  }

  async committedOffsets(groupId: string): Promise<port.Offsets> {
    const { rows } = await this.pool.query<{ partition: number; next_offset: string }>(
      'SELECT partition, next_offset::text FROM cs_group_offsets WHERE group_id = $1',
      [groupId],
    );
    return new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
  }

  async commitOffsets(groupId: string, offsets: port.Offsets): Promise<void> {
    if (offsets.size === 0) return;
    await this.pool.query(
      `INSERT INTO cs_group_offsets (group_id, partition, next_offset)
       SELECT $1, o.partition, o.next_offset FROM unnest($2::int[], $3::bigint[]) AS o(partition, next_offset)
       ON CONFLICT (group_id, partition) DO UPDATE SET next_offset = excluded.next_offset`,
      [groupId, [...offsets.keys()], [...offsets.values()].map(String)],
    );
  }

  async endOffsets(): Promise<port.Offsets> {
    await this.ensurePartitions();
    const { rows } = await this.pool.query<{ partition: number; next_offset: string }>(
      'SELECT partition, next_offset::text FROM cs_partitions WHERE partition < $1',
      [this.partitionCount],
    );
    return new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
  }

  async deleteRecords(before: port.Offsets, { publishedBefore }: { publishedBefore: Date }): Promise<number> {
    if (before.size === 0) return 0;
    // Whole chunks only: one that straddles an offset stays until all of it is below.
    const { rows } = await this.pool.query<{ messages: string | null }>(
      `WITH gone AS (
         DELETE FROM cs_chunks c USING unnest($1::int[], $2::bigint[]) AS o(partition, before)
         WHERE c.published_at < $3 AND c.partition = o.partition AND c.last_offset < o.before
         RETURNING c.last_offset - c.first_offset + 1 AS messages)
       SELECT sum(messages)::text AS messages FROM gone`,
      [[...before.keys()], [...before.values()].map(String), publishedBefore],
    );
    return Number(rows[0]?.messages ?? 0);
  }

  async close(): Promise<void> {}

  /** @internal Reads up to `max` messages of every partition from the given offsets. */
  async fetch(offsets: port.Offsets, max: number): Promise<port.ConsumedBatch<Value>[]> {
    const partitions = [...Array(this.partitionCount).keys()];
    // Chunks never exceed MAX_CHUNK messages, so the ones holding offsets [next, next + max) all end
    // below next + max + MAX_CHUNK: a bounded range of the primary key.
    const { rows } = await this.pool.query<ChunkRow>({
      name: 'cs-fetch',
      text: `SELECT c.partition, c.first_offset::text AS first_offset, c.messages,
         (extract(epoch FROM c.published_at) * 1000)::float8 AS published_ms
       FROM unnest($1::int[], $2::bigint[]) AS o(partition, next_offset)
       CROSS JOIN LATERAL (
         SELECT * FROM cs_chunks c
         WHERE c.partition = o.partition AND c.last_offset >= o.next_offset
           AND c.last_offset < o.next_offset + $3::bigint + ${MAX_CHUNK}
         ORDER BY c.last_offset) AS c`,
      values: [partitions, partitions.map((p) => String(offsets.get(p) ?? 0n)), max],
    });
    return toBatches(rows as ChunkRow[], offsets, max) as port.ConsumedBatch<Value>[];
  }

  /** @internal */
  listen(onPublished: () => void): Promise<() => void> {
    return this.notifications.listen(PUBLISHED_CHANNEL, onPublished);
  }

  /** @internal */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect();
  }

  /** @internal */
  get idleMs(): number {
    return this.idlePollMs;
  }

  private ensurePartitions(): Promise<void> {
    this.ready ??= this.pool
      .query(
        `INSERT INTO cs_partitions (partition, next_offset)
         SELECT g, 0 FROM generate_series(0, $1::int - 1) AS g ON CONFLICT DO NOTHING`,
        [this.partitionCount],
      )
      .then(
        () => undefined,
        (error: unknown) => {
          this.ready = undefined;
          throw error;
        },
      );
    return this.ready;
  }
}

/** One group member: waits for the group's lock, then reads from its start offsets until stopped. */
class PostgresConsumer<Value> implements port.Consumer {
  private readonly activation = new Signal();
  readonly active = this.activation.promise;
  private stopped = false;
  private readonly wakeup = new Wakeup();
  private readonly running: Promise<void>;

  constructor(
    private readonly stream: PostgresClickStream<Value>,
    private readonly options: port.ConsumeOptions<Value>,
  ) {
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeup.wake();
    await this.running;
  }

  private async run(): Promise<void> {
    let unlisten: (() => void) | undefined;
    try {
      while (!this.stopped) {
        try {
          // A LISTEN connection that cannot be opened is retried like a failed read, not the end of the member.
          unlisten ??= await this.stream.listen(this.wakeup.wake);
          await this.whileHoldingGroupLock((lockLost) => this.readUntilStopped(lockLost));
        } catch (error) {
          this.options.onError?.(error);
          await this.wakeup.sleep(1_000);
        }
      }
    } finally {
      unlisten?.();
    }
  }

  private async whileHoldingGroupLock(work: (lockLost: () => boolean) => Promise<void>): Promise<void> {
    const lockClient = await this.stream.connect();
    const key = `cs-group:${this.options.groupId}`;
    // The lock lives as long as its connection: once that is gone (the server restarted), another member
    // may hold it, so this one stops reading and competes for it again.
    let lost = false;
    const onLost = () => {
      lost = true;
      this.wakeup.wake();
    };
    lockClient.on('error', onLost);
    try {
      while (!this.stopped) {
        const { rows } = await lockClient.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
          [key],
        );
        if (rows[0]?.locked) break;
        await this.wakeup.sleep(500);
      }
      if (this.stopped) return;
      try {
        this.activation.resolve();
        await work(() => lost);
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
      }
    } finally {
      lockClient.off('error', onLost);
      lockClient.release(lost);
    }
  }

  private async readUntilStopped(lockLost: () => boolean): Promise<void> {
    const {
      groupId,
      autoCommit = true,
      maxBatchSize = 1_000,
      partitionsConsumedConcurrently = 1,
    } = this.options;
    const offsets = this.options.startOffsets
      ? await this.options.startOffsets()
      : await this.stream.committedOffsets(groupId);
    let prefetched: Promise<port.ConsumedBatch<Value>[]> | undefined;
    try {
      while (!this.stopped && !lockLost()) {
        const batches = await (prefetched ?? this.stream.fetch(offsets, maxBatchSize));
        const full = batches.some((batch) => batch.messages.length === maxBatchSize);
        // Behind: read the next round, from where this one ends, while this one is handled. If handling
        // fails the prefetched round is dropped, and reading starts again from the offsets reached.
        prefetched = full ? this.stream.fetch(offsetsAfter(offsets, batches), maxBatchSize) : undefined;
        prefetched?.catch(() => {});
        // One batch per partition in a fetch, so batches handled at once never share a partition.
        await eachConcurrently(batches, partitionsConsumedConcurrently, async (batch) => {
          if (this.stopped) return;
          await this.options.eachBatch(batch);
          offsets.set(batch.partition, batch.nextOffset);
          if (autoCommit)
            await this.stream.commitOffsets(groupId, new Map([[batch.partition, batch.nextOffset]]));
        });
        if (!full && !this.stopped) await this.wakeup.sleep(this.stream.idleMs);
      }
    } finally {
      // Stopped or failed: a read still under way ends before its connection's pool may be closed.
      await prefetched?.catch(() => undefined);
    }
  }
}

function offsetsAfter(offsets: port.Offsets, batches: readonly port.ConsumedBatch[]): port.Offsets {
  const next = new Map(offsets);
  for (const batch of batches) next.set(batch.partition, batch.nextOffset);
  return next;
}

/**
 * Runs `work` on every item, at most `limit` at once. After a failure it starts no more items, lets the
 * running ones finish, then throws the first error.
 */
async function eachConcurrently<Item>(
  items: readonly Item[],
  limit: number,
  work: (item: Item) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as Item;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
}

/** A publish's messages by partition (ascending), cut into chunks of at most MAX_CHUNK, as SQL parameters. */
interface EncodedChunks {
  partitions: number[];
  /** Messages per partition. */
  counts: number[];
  /** Per chunk, in partition and then offset order: its partition, its number of messages, its JSON. */
  chunkPartitions: number[];
  chunkCounts: number[];
  /** `[[key, value], ...]`: each a text parameter of its own, which the driver sends as it is. */
  json: string[];
}

function encodeChunks<Value>(messages: port.StreamMessage<Value>[], partitionCount: number): EncodedChunks {
  const byPartition = new Map<number, port.StreamMessage<Value>[]>();
  for (const message of messages) {
    const partition = partitionFor(message.key, partitionCount);
    const list = byPartition.get(partition);
    if (list) list.push(message);
    else byPartition.set(partition, [message]);
  }
  const encoded: EncodedChunks = {
    partitions: [],
    counts: [],
    chunkPartitions: [],
    chunkCounts: [],
    json: [],
  };
  for (const partition of [...byPartition.keys()].sort((a, b) => a - b)) {
    const list = byPartition.get(partition) ?? [];
    encoded.partitions.push(partition);
    encoded.counts.push(list.length);
    for (let at = 0; at < list.length; at += MAX_CHUNK) {
      const chunk = list.slice(at, at + MAX_CHUNK);
      encoded.chunkPartitions.push(partition);
      encoded.chunkCounts.push(chunk.length);
      encoded.json.push(JSON.stringify(chunk.map((message) => [message.key, message.value])));
    }
  }
  return encoded;
}

/**
 * A message as read. A class rather than an object literal: V8 moves the allocations of a literal whose
 * objects often outlive a young-generation collection (a batch's messages while a flush holds the reader
 * back) straight to the old generation, and every message read after that was marked and compacted
 * there. On the click thread that cost ~1.5 µs a click of V8's helper threads (bench:click-thread).
 */
class ReadMessage implements port.ConsumedMessage {
  constructor(
    readonly partition: number,
    readonly offset: bigint,
    readonly key: string,
    readonly value: unknown,
    readonly publishedAt: Date,
  ) {}
}

/** Up to `max` messages per partition from its next offset on, out of the chunks that hold them. */
function toBatches(rows: ChunkRow[], from: port.Offsets, max: number): port.ConsumedBatch[] {
  const batches = new Map<number, port.ConsumedMessage[]>();
  rows.sort((a, b) => a.partition - b.partition || Number(BigInt(a.first_offset) - BigInt(b.first_offset)));
  for (const row of rows) {
    let list = batches.get(row.partition);
    if (!list) {
      list = [];
      batches.set(row.partition, list);
    }
    const next = from.get(row.partition) ?? 0n;
    const first = BigInt(row.first_offset);
    const publishedAt = new Date(row.published_ms);
    const messages = JSON.parse(row.messages) as [string, unknown][];
    // A chunk the last fetch stopped inside starts before `next`: skip what was read already.
    for (let i = next > first ? Number(next - first) : 0; i < messages.length && list.length < max; i++) {
      const [key, value] = messages[i] as [string, unknown];
      list.push(new ReadMessage(row.partition, first + BigInt(i), key, value, publishedAt));
    }
  }
  return [...batches]
    .filter(([, messages]) => messages.length > 0)
    .map(([partition, messages]) => ({
      partition,
      messages,
      nextOffset: (messages.at(-1)?.offset ?? -1n) + 1n,
    }));
}
