/**
 * The click stream port, shaped to Kafka's semantics so its adapter fits without changing callers: a topic
 * of partitions, messages keyed (same key, same partition, kept in order), contiguous offsets per
 * partition, and consumer groups whose offsets are stored (by the stream, or by the consumer itself in
 * its own transaction, as the analytics projection does).
 */

export interface StreamMessage<Value = unknown> {
  key: string;
  value: Value;
}

export interface ConsumedMessage<Value = unknown> extends StreamMessage<Value> {
  partition: number;
  offset: bigint;
  publishedAt: Date;
  /**
   * The publish the message came in, when it was given an id, and the message's place among that
   * publish's messages on this partition (`index` of `count`). A publish's messages on a partition are
   * stored together, in one piece, so a consumer that records (partition, id, first offset + count) with
   * what it counted can tell a re-sent copy from the one it counted (see PublishOptions.id).
   */
  publish?: PublishPart;
}

export interface PublishPart {
  id: string;
  index: number;
  count: number;
}

export interface ConsumedBatch<Value = unknown> {
  partition: number;
  messages: ConsumedMessage<Value>[];
  /** The offset to read next once this batch is handled (last offset + 1). */
  nextOffset: bigint;
}

/** Partition -> the next offset to read (Kafka's committed offset). */
export type Offsets = Map<number, bigint>;

export interface ConsumeOptions<Value = unknown> {
  groupId: string;
  /**
   * Where to start reading, per partition, each time this consumer becomes the group's active one.
   * Default: the group's committed offsets; partitions without one start at the earliest message.
   */
  startOffsets?: () => Promise<Offsets>;
  /** Handles one partition's batch; the batch counts as done when this resolves. A throw retries it. */
  eachBatch(batch: ConsumedBatch<Value>): Promise<void>;
  /** Commit the group's offsets after each batch (default true; false when offsets live with the data). */
  autoCommit?: boolean;
  maxBatchSize?: number;
  /**
   * How many partitions' batches `eachBatch` may handle at once (default 1). A partition's own batches
   * still come one after the other, in offset order. (kafkajs calls it the same.)
   */
  partitionsConsumedConcurrently?: number;
  onError?(error: unknown): void;
}

export interface Consumer {
  /** Resolves once this consumer reads (it may wait as a standby while another member is active). */
  readonly active: Promise<void>;
  stop(): Promise<void>;
}

export interface PublishOptions {
  /**
   * Names this publish, for a retry after a failure that may have come after the commit. A stream may
   * store such a re-sent publish again: Kafka's idempotent producer drops only its own retries within one
   * producer session, not a second `publish` call (the PostgreSQL stream stores it once, remembering ids
   * for a day). Either way each delivered message carries the id and its place (`ConsumedMessage.publish`),
   * so a consumer that must count once keeps, with its offsets, which publish parts it has counted.
   */
  id?: string;
}

export interface ClickStream<Value = unknown> {
  readonly partitionCount: number;
  /** Publishes a batch; resolves once every message is durably stored. */
  publish(messages: StreamMessage<Value>[], options?: PublishOptions): Promise<void>;
  consume(options: ConsumeOptions<Value>): Consumer;
  committedOffsets(groupId: string): Promise<Offsets>;
  commitOffsets(groupId: string, offsets: Offsets): Promise<void>;
  /** Partition -> the offset the next published message will get (Kafka's high watermark). */
  endOffsets(): Promise<Offsets>;
  /**
   * Deletes the messages of each given partition below its offset that were published before
   * `publishedBefore` (Kafka: deleteRecords; there the topic's retention also deletes on its own).
   * Returns how many messages went. A reader must not start below the offsets given.
   */
  deleteRecords(before: Offsets, options: { publishedBefore: Date }): Promise<number>;
  close(): Promise<void>;
}

/** Stable key -> partition (FNV-1a); the Kafka adapter leaves this to Kafka's own partitioner. */
export function partitionFor(key: string, partitionCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitionCount;
}
