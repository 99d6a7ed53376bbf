import { randomUUID } from 'node:crypto';
import {
  type Admin,
  type EachBatchPayload,
  type IHeaders,
  Kafka,
  type Consumer as KafkaConsumer,
  type KafkaMessage,
  type LogEntry,
  logLevel,
  type Message,
  type Producer,
} from 'kafkajs';
import { Signal, Wakeup } from '../db/notifications';
import type { Logger } from '../logging';
import type * as port from './port';
import { partitionFor } from './port';

export interface KafkaClickStreamOptions {
  brokers: string[];
  /** Default `clicks`. */
  topic?: string;
  /** The partitions of the topic this stream creates when it is absent (an existing topic keeps its own). */
  partitionCount: number;
  clientId?: string;
  log?: Logger;
  /**
   * How long a publish, or a question to the broker (offsets, deletes), may take before it is given up
   * (default 10 s): a broker that is down must fail them, so that the click buffer and its spill take over
   * and /readyz answers, rather than hang on kafkajs's own retries (minutes for an idempotent producer).
   */
  timeoutMs?: number;
}

/**
 * The header that says which publish a message came in (`ConsumedMessage.publish`): `index/count id`, its
 * place among that publish's messages on its partition, then the publish id. One header, not three: each
 * costs kafkajs an encoding per message and the consumer a buffer per message.
 */
const PUBLISH_HEADER = 'publish';

const DEFAULT_TIMEOUT_MS = 10_000;
/** A consumer member that failed (no broker, a crash) starts again after this long. */
const RESTART_AFTER_MS = 1_000;
const SESSION_TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 1_000;
/** A batch whose handler threw is handed to it again after this long. */
const RETRY_BATCH_AFTER_MS = 1_000;

/**
 * Created topics' settings. A publish's messages for one partition go out as one record batch (that is
 * what keeps them in one piece, see `ConsumedMessage.publish`), so a batch may be larger than Kafka's
 * default 1 MB: 2,000 clicks of one link are. And the app decides when clicks go (CLICK_LOG_RETENTION_DAYS,
 * only counted ones, via `deleteRecords`): the broker's time retention would delete uncounted clicks of a
 * consumer stopped for longer than it.
 */
const TOPIC_CONFIG = [
  { name: 'max.message.bytes', value: String(16 * 1024 * 1024) },
  { name: 'retention.ms', value: '-1' },
];

/**
 * The click stream on Kafka (kafkajs): one topic, keyed messages, consumer groups.
 *
 * Nothing connects at construction: the topic is created (when absent) and the clients connect on first
 * use, and a client that failed is dropped and made again on the next call, so a broker that is down
 * fails calls within `timeoutMs` and a broker that comes back is used again.
 *
 * The producer is idempotent with acks=all: its own retries of a send are stored once. A failed publish
 * drops the producer, and the next publish gets one with a new producer id (the old one's sequence numbers
 * may be out of step with what the broker stored). A publish re-sent after a failure may therefore be
 * stored twice, which the port allows (`PublishOptions.id`).
 */
export class KafkaClickStream<Value = unknown> implements port.ClickStream<Value> {
  readonly topic: string;
  private partitions: number;
  private readonly kafka: Kafka;
  private readonly log: Logger | undefined;
  private readonly timeoutMs: number;
  private producer: Promise<Producer> | undefined;
  private admin: Promise<Admin> | undefined;
  private topicReady: Promise<void> | undefined;
  private closed = false;
  private readonly consumers = new Set<KafkaGroupMember<Value>>();

  constructor(options: KafkaClickStreamOptions) {
    this.topic = options.topic ?? 'clicks';
    this.partitions = options.partitionCount;
    this.log = options.log;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const log = options.log?.child({ component: 'kafkajs' });
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'sniplink',
      brokers: options.brokers,
      connectionTimeout: 3_000,
      // Within the publish bound: a request the broker does not answer fails, and the send is retried.
      requestTimeout: Math.min(5_000, this.timeoutMs),
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000 },
      logLevel: logLevel.WARN,
      logCreator: () => (entry) => log && logKafkaEntry(log, entry),
    });
  }

  /** The topic's partitions: CLICK_PARTITIONS until the topic is known, then the count it has. */
  get partitionCount(): number {
    return this.partitions;
  }

  publish(messages: port.StreamMessage<Value>[], options: port.PublishOptions = {}): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return this.bounded('publishing', this.send(messages, options.id ?? randomUUID()));
  }

  private async send(messages: port.StreamMessage<Value>[], id: string): Promise<void> {
    await this.ensureTopic();
    const connecting = this.connectedProducer();
    try {
      const producer = await connecting;
      await producer.send({
        topic: this.topic,
        acks: -1,
        timeout: Math.min(5_000, this.timeoutMs),
        messages: encode(messages, id, this.partitions),
      });
    } catch (error) {
      if (this.producer === connecting) this.producer = undefined;
      void connecting.then((producer) => producer.disconnect()).catch(() => {});
      throw error;
    }
  }

  private connectedProducer(): Promise<Producer> {
    if (this.closed) return Promise.reject(new Error('the Kafka click stream is closed'));
    this.producer ??= connect(
      this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // Every message names its partition (see `encode`), chosen with the port's partitionFor and not
        // Kafka's murmur2: readers that look for a key's partition (linkClicks) use partitionFor too.
        createPartitioner: () => explicitPartition,
        // Bounded, unlike kafkajs's default for an idempotent producer (retry for ever): a publish must
        // fail while the broker is down. The producer is replaced after a failure (see `send`).
        retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000 },
      }),
    );
    return this.producer;
  }

  consume(options: port.ConsumeOptions<Value>): port.Consumer {
    const member = new KafkaGroupMember(this, options, () => this.consumers.delete(member));
    this.consumers.add(member);
    return member;
  }

  committedOffsets(groupId: string): Promise<port.Offsets> {
    return this.withAdmin('reading committed offsets', async (admin) => {
      const [topic] = await admin.fetchOffsets({ groupId, topics: [this.topic] });
      const offsets: port.Offsets = new Map();
      for (const { partition, offset } of topic?.partitions ?? []) {
        if (BigInt(offset) >= 0n) offsets.set(partition, BigInt(offset));
      }
      return offsets;
    });
  }

  /**
   * Sets the group's offsets from outside the group (admin setOffsets): Kafka allows that only while the
   * group has no member, so it throws while a consumer of the group runs. Members commit their own. Slow
   * (kafkajs joins the group for it and waits out a fetch: about 5 s); the app itself never calls it.
   */
  async commitOffsets(groupId: string, offsets: port.Offsets): Promise<void> {
    if (offsets.size === 0) return;
    await this.withAdmin('committing offsets', (admin) =>
      admin.setOffsets({
        groupId,
        topic: this.topic,
        partitions: [...offsets].map(([partition, offset]) => ({ partition, offset: String(offset) })),
      }),
    );
  }

  async endOffsets(): Promise<port.Offsets> {
    const bounds = await this.partitionBounds();
    return new Map([...bounds].map(([partition, { high }]) => [partition, high]));
  }

  /**
   * Per partition, deletes (deleteRecords, which moves the partition's start) below the given offset or
   * the first message published at or after `publishedBefore` (the record timestamps), whichever is lower.
   */
  deleteRecords(before: port.Offsets, { publishedBefore }: { publishedBefore: Date }): Promise<number> {
    if (before.size === 0) return Promise.resolve(0);
    return this.withAdmin('deleting records', async (admin) => {
      await this.ensureTopic();
      const [bounds, byTime] = await Promise.all([
        admin.fetchTopicOffsets(this.topic),
        admin.fetchTopicOffsetsByTimestamp(this.topic, publishedBefore.getTime()),
      ]);
      const cuts: { partition: number; offset: string }[] = [];
      let deleted = 0n;
      for (const { partition, low } of bounds) {
        const requested = before.get(partition);
        const notBefore = byTime.find((p) => p.partition === partition)?.offset;
        if (requested === undefined || notBefore === undefined) continue;
        const cut = min(requested, BigInt(notBefore));
        if (cut <= BigInt(low)) continue;
        cuts.push({ partition, offset: String(cut) });
        deleted += cut - BigInt(low);
      }
      if (cuts.length > 0) await admin.deleteTopicRecords({ topic: this.topic, partitions: cuts });
      return Number(deleted);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.consumers].map((member) => member.stop()));
    const clients = [this.producer, this.admin];
    this.producer = undefined;
    this.admin = undefined;
    await Promise.all(clients.map((client) => client?.then((c) => c.disconnect()).catch(() => undefined)));
  }

  /** @internal Partition -> its first (low watermark) and next (high watermark) offsets. */
  partitionBounds(): Promise<Map<number, { low: bigint; high: bigint }>> {
    return this.withAdmin('reading end offsets', async (admin) => {
      await this.ensureTopic();
      const offsets = await retried(() => admin.fetchTopicOffsets(this.topic), this.timeoutMs);
      return new Map(
        offsets.map(({ partition, low, high }) => [partition, { low: BigInt(low), high: BigInt(high) }]),
      );
    });
  }

  /** @internal A kafkajs consumer of this stream's topic, for one group member. */
  kafkaConsumer(groupId: string): KafkaConsumer {
    return this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      // The broker holds a fetch this long when there is nothing new: also how long stopping may wait.
      maxWaitTimeInMs: 500,
      // A member that stops heartbeating (a killed process) loses its partitions to the others after this
      // long. A live one heartbeats also while its handler takes longer (see `handle`).
      sessionTimeout: SESSION_TIMEOUT_MS,
      heartbeatInterval: HEARTBEAT_MS,
      // The member restarts itself (KafkaGroupMember.run), with the group's start offsets again.
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000, restartOnFailure: async () => false },
    });
  }

  /**
   * Creates the topic when it is absent (CLICK_PARTITIONS partitions) and learns its partition count:
   * once per stream, again after a failure.
   */
  ensureTopic(): Promise<void> {
    this.topicReady ??= this.withAdmin('creating the topic', async (admin) => {
      const created = await admin.createTopics({
        topics: [{ topic: this.topic, numPartitions: this.partitions, configEntries: TOPIC_CONFIG }],
        waitForLeaders: true,
      });
      // The metadata names the leaders before they all answer: their first answers may still be "not the
      // leader", which kafkajs's admin calls do not retry.
      if (created) await retried(() => admin.fetchTopicOffsets(this.topic), this.timeoutMs);
      const { topics } = await admin.fetchTopicMetadata({ topics: [this.topic] });
      const actual = topics[0]?.partitions.length ?? 0;
      if (actual === 0) throw new Error(`Kafka topic ${this.topic} has no partitions`);
      if (actual !== this.partitions) {
        this.log?.warn(
          { topic: this.topic, partitions: actual, configured: this.partitions },
          'the Kafka click topic exists with another partition count than CLICK_PARTITIONS; using its own',
        );
        this.partitions = actual;
      }
    }).catch((error: unknown) => {
      this.topicReady = undefined;
      throw error;
    });
    return this.topicReady;
  }

  /** Runs `work` on the admin client within the bound; a failure drops the client (made anew next time). */
  private withAdmin<T>(what: string, work: (admin: Admin) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the Kafka click stream is closed'));
    this.admin ??= connect(this.kafka.admin());
    const admin = this.admin;
    return this.bounded(
      what,
      admin.then(work).catch((error: unknown) => {
        if (this.admin === admin) this.admin = undefined;
        void admin.then((client) => client.disconnect()).catch(() => {});
        throw error;
      }),
    );
  }

  private bounded<T>(what: string, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Kafka click stream: ${what} got no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    work.catch(() => {}); // rejected after the timeout: already reported
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}

/**
 * One `consume()` call: a kafkajs consumer in the group, restarted (a new member) after a crash or a
 * failed start, until stopped. Kafka shares the partitions among the group's members; one that got none
 * waits as a standby.
 */
class KafkaGroupMember<Value> implements port.Consumer {
  private readonly activation = new Signal();
  readonly active = this.activation.promise;
  private stopped = false;
  private readonly wakeup = new Wakeup();
  /** The kafkajs consumer of this run: a seek for an earlier one (crashed, replaced) gives up. */
  private current: KafkaConsumer | undefined;
  private endCurrent: () => void = () => {};
  /** Partition -> the next offset to read, for the partitions this member reads (as handled, or sought). */
  private positions: port.Offsets = new Map();
  /** Resolves once this generation's partitions are sought to their start offsets. */
  private seeking: Promise<void> = Promise.resolve();
  private readonly running: Promise<void>;

  constructor(
    private readonly stream: KafkaClickStream<Value>,
    private readonly options: port.ConsumeOptions<Value>,
    private readonly onStopped: () => void,
  ) {
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeup.wake();
    this.endCurrent();
    await this.running;
    this.onStopped();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const consumer = this.stream.kafkaConsumer(this.options.groupId);
      this.current = consumer;
      this.positions = new Map(); // a new member: its partitions start where startOffsets says
      const ended = new Promise<unknown>((resolve) => {
        this.endCurrent = () => resolve(undefined);
        consumer.on(consumer.events.CRASH, (event) => resolve(event.payload.error));
      });
      consumer.on(consumer.events.GROUP_JOIN, (event) =>
        this.joined(consumer, event.payload.memberAssignment[this.stream.topic] ?? []),
      );
      try {
        await this.stream.ensureTopic();
        await consumer.connect();
        await consumer.subscribe({ topic: this.stream.topic, fromBeginning: true });
        if (!this.stopped)
          await consumer.run({
            autoCommit: false, // committed here, after each handled batch (see `handle`)
            eachBatchAutoResolve: false,
            partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
            eachBatch: (payload) => this.handle(payload),
          });
        const crash = this.stopped ? undefined : await ended;
        if (crash !== undefined && !this.stopped) this.options.onError?.(crash);
      } catch (error) {
        if (!this.stopped) this.options.onError?.(error);
      }
      await consumer.disconnect().catch(() => {});
      if (!this.stopped) await this.wakeup.sleep(RESTART_AFTER_MS);
    }
  }

  /**
   * Each time the group hands this member partitions (kafkajs's GROUP_JOIN, after run(), when seeking
   * works). Partitions it read before the rebalance and keeps go on from where it was (kafkajs would
   * start them again at the committed offsets, none for a consumer that stores its own): it did not
   * become their reader anew, and a consumer holding uncommitted work for them must not get it twice.
   * New ones are sought to `startOffsets` when given (else kafkajs starts them at the committed offsets,
   * earliest when none). Batches fetched before the seeks wait for them and are then dropped as stale.
   */
  private joined(consumer: KafkaConsumer, partitions: number[]): void {
    const kept: port.Offsets = new Map();
    for (const partition of partitions) {
      const position = this.positions.get(partition);
      if (position !== undefined) kept.set(partition, position);
    }
    this.positions = new Map(kept);
    if (partitions.length === 0) return; // a standby
    const { startOffsets } = this.options;
    const added = partitions.filter((partition) => !kept.has(partition));
    this.seeking = (async () => {
      for (const [partition, offset] of kept)
        consumer.seek({ topic: this.stream.topic, partition, offset: String(offset) });
      if (startOffsets && added.length > 0) await this.seek(consumer, added, startOffsets);
      this.activation.resolve();
    })();
  }

  private async seek(
    consumer: KafkaConsumer,
    partitions: number[],
    startOffsets: () => Promise<port.Offsets>,
  ): Promise<void> {
    while (!this.stopped && this.current === consumer) {
      try {
        const [offsets, bounds] = await Promise.all([startOffsets(), this.stream.partitionBounds()]);
        for (const partition of partitions) {
          const { low, high } = bounds.get(partition) ?? { low: 0n, high: 0n };
          // Below the start (deleted) or past the end, Kafka would reset the partition to its earliest
          // offset and commit that for the group: start at the nearest offset that exists instead.
          const offset = max(low, min(offsets.get(partition) ?? low, high));
          consumer.seek({ topic: this.stream.topic, partition, offset: String(offset) });
          this.positions.set(partition, offset);
        }
        return;
      } catch (error) {
        this.options.onError?.(error);
        await this.wakeup.sleep(RESTART_AFTER_MS);
      }
    }
  }

  /**
   * A kafkajs batch, in chunks of at most `maxBatchSize`, each handed to `eachBatch` until it resolves
   * (a throw hands the same chunk again), then resolved and (autoCommit) committed: offsets are
   * committed after the batch is handled. The rest of a batch is left to the next fetch when its
   * partition was sought meanwhile (stale), and to the partition's owner after a rebalance heard of.
   */
  private async handle(payload: EachBatchPayload): Promise<void> {
    // kafkajs heartbeats only when asked: while the seek or a handler waits (a slow flush), the member
    // would otherwise miss its session and lose its partitions. What such a heartbeat hears (a rebalance)
    // is thrown between chunks, for kafkajs to rejoin the group.
    let heard: unknown;
    const beating = setInterval(() => {
      payload.heartbeat().catch((error: unknown) => {
        heard ??= error;
      });
    }, HEARTBEAT_MS);
    const heartbeat = async () => {
      if (heard !== undefined) throw heard;
      await payload.heartbeat();
    };
    try {
      await this.seeking;
      await this.handleInChunks({ ...payload, heartbeat });
    } finally {
      clearInterval(beating);
    }
  }

  private async handleInChunks(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary } = payload;
    const { maxBatchSize = 1_000, autoCommit = true } = this.options;
    const { partition, messages } = batch;
    for (let at = 0; at < messages.length; at += maxBatchSize) {
      const chunk = toBatch<Value>(partition, messages.slice(at, at + maxBatchSize));
      await heartbeat();
      while (true) {
        if (this.stopped || !isRunning() || isStale()) return;
        try {
          await this.options.eachBatch(chunk);
          break;
        } catch (error) {
          this.options.onError?.(error);
          await this.wakeup.sleep(RETRY_BATCH_AFTER_MS);
          await heartbeat();
        }
      }
      resolveOffset(String(chunk.nextOffset - 1n));
      this.positions.set(partition, chunk.nextOffset);
      if (autoCommit) {
        await commitOffsetsIfNecessary({
          topics: [{ topic: batch.topic, partitions: [{ partition, offset: String(chunk.nextOffset) }] }],
        });
      }
    }
  }
}

/** A message as read (a class, for the reason postgres.ts's ReadMessage gives). */
class ReadMessage<Value> implements port.ConsumedMessage<Value> {
  constructor(
    readonly partition: number,
    readonly offset: bigint,
    readonly key: string,
    readonly value: Value,
    readonly publishedAt: Date,
    readonly publish: port.PublishPart | undefined,
  ) {}
}

function toBatch<Value>(partition: number, messages: KafkaMessage[]): port.ConsumedBatch<Value> {
  const read = messages.map(
    (m) =>
      new ReadMessage<Value>(
        partition,
        BigInt(m.offset),
        m.key?.toString() ?? '',
        JSON.parse(m.value?.toString() ?? 'null') as Value,
        new Date(Number(m.timestamp)),
        publishPart(m.headers),
      ),
  );
  return { partition, messages: read, nextOffset: (read.at(-1)?.offset ?? -1n) + 1n };
}

function publishPart(headers: IHeaders | undefined): port.PublishPart | undefined {
  const header = headers?.[PUBLISH_HEADER]?.toString();
  const space = header?.indexOf(' ') ?? -1;
  if (header === undefined || space < 0) return undefined;
  const [index, count] = header.slice(0, space).split('/').map(Number);
  if (!Number.isInteger(index) || !Number.isInteger(count)) return undefined;
  return { id: header.slice(space + 1), index: index as number, count: count as number };
}

/** The messages as kafkajs sends them: each with its partition and its place in the publish's part there. */
function encode<Value>(messages: port.StreamMessage<Value>[], id: string, partitionCount: number): Message[] {
  const partitions = messages.map((message) => partitionFor(message.key, partitionCount));
  const counts = new Map<number, number>();
  for (const partition of partitions) counts.set(partition, (counts.get(partition) ?? 0) + 1);
  const next = new Map<number, number>();
  return messages.map((message, i) => {
    const partition = partitions[i] as number;
    const index = next.get(partition) ?? 0;
    next.set(partition, index + 1);
    return {
      partition,
      key: message.key,
      value: JSON.stringify(message.value),
      headers: { [PUBLISH_HEADER]: `${index}/${counts.get(partition)} ${id}` },
    };
  });
}

function explicitPartition({ message }: { message: Message }): number {
  if (message.partition === undefined) throw new Error('a click stream message has no partition');
  return message.partition;
}

/** Calls `work` until it does not fail with an error Kafka calls retriable, for up to `ms`. */
async function retried<T>(work: () => Promise<T>, ms: number): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function connect<Client extends { connect(): Promise<void> }>(client: Client): Promise<Client> {
  await client.connect();
  return client;
}

/**
 * kafkajs's warnings and errors in the app's log at debug level: every failure that matters reaches the
 * app as a rejected call or a consumer's `onError`, which its caller logs once, while kafkajs logs each
 * connection attempt (ten lines a second while a broker is down).
 */
function logKafkaEntry(log: Logger, { level, namespace, log: entry }: LogEntry): void {
  const { message, timestamp: _, ...fields } = entry;
  // Said when the idempotent producer's retries are bounded: here a failed publish replaces the producer.
  if (message.startsWith('Limiting retries for the idempotent producer')) return;
  log.debug({ namespace, kafkaLevel: logLevel[level], ...fields }, message);
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
