import net from 'node:net';
import { freePort } from '@sniplink/test-support/app-process';
import { serverMissing } from '@sniplink/test-support/run-servers';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { clickStreamContract } from './click-stream.contract';
import { KafkaClickStream } from './kafka';
import { partitionFor } from './port';

// The run's broker (test/support/servers.ts): KAFKA_BROKERS (`npm run kafka:local` prints it), a
// container, or none, and why.
const missing = serverMissing('kafka');
const brokers = missing ? undefined : process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim());
if (missing) console.warn(`kafka.test.ts: the Kafka click stream suites are skipped: ${missing}`);

/** Topics of this run of this file, deleted at its end: the broker is shared. */
const topics: string[] = [];
let topicCounter = 0;
const newTopic = () => {
  const topic = `clicks-test-${process.pid}-${Date.now()}-${++topicCounter}`;
  topics.push(topic);
  return topic;
};

describe.skipIf(!brokers)('kafka click stream', () => {
  const admin = new Kafka({ brokers: brokers ?? [], logLevel: logLevel.NOTHING }).admin();
  afterAll(async () => {
    await admin.connect();
    const existing = new Set(await admin.listTopics());
    await admin.deleteTopics({ topics: topics.filter((topic) => existing.has(topic)) });
    await admin.disconnect();
  });

  clickStreamContract('kafka', async () => {
    const stream = new KafkaClickStream({ brokers: brokers ?? [], topic: newTopic(), partitionCount: 4 });
    // No holdCommits: a partition's record batches are appended whole, one after the other.
    return { stream, cleanup: () => stream.close() };
  });

  it('creates its topic with CLICK_PARTITIONS partitions when absent, and keeps the count of one that exists', async () => {
    const topic = newTopic();
    const first = new KafkaClickStream({ brokers: brokers ?? [], topic, partitionCount: 3 });
    expect((await first.endOffsets()).size).toBe(3);
    await admin.connect();
    const { topics: described } = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(described[0]?.partitions).toHaveLength(3);
    await first.close();

    const second = new KafkaClickStream({ brokers: brokers ?? [], topic, partitionCount: 5 });
    expect((await second.endOffsets()).size).toBe(3);
    expect(second.partitionCount).toBe(3);
    await second.close();
  });

  it("marks each message with its publish's id and its place among that publish's messages on its partition", async () => {
    const stream = new KafkaClickStream<number>({
      brokers: brokers ?? [],
      topic: newTopic(),
      partitionCount: 4,
    });
    const sent = Array.from({ length: 40 }, (_, n) => ({ key: `link-${n % 9}`, value: n }));
    const before = Date.now();
    await stream.publish(sent, { id: 'the-publish' });
    await stream.publish([{ key: 'link-0', value: 40 }]); // no id given: one is made up
    const received: { partition: number; value: number; publish: unknown; at: number }[] = [];
    const consumer = stream.consume({
      groupId: `marks-${process.pid}`,
      eachBatch: async (batch) => {
        for (const m of batch.messages)
          received.push({ partition: m.partition, value: m.value, publish: m.publish, at: +m.publishedAt });
      },
    });
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(41);
    await consumer.stop();

    for (let partition = 0; partition < stream.partitionCount; partition++) {
      const part = received.filter((m) => m.partition === partition && m.value < 40);
      expect(part.map((m) => m.value)).toEqual(
        sent.filter((m) => partitionFor(m.key, 4) === partition).map((m) => m.value),
      );
      expect(part.map((m) => m.publish)).toEqual(
        part.map((_, index) => ({ id: 'the-publish', index, count: part.length })),
      );
    }
    const unnamed = received.find((m) => m.value === 40);
    expect(unnamed?.publish).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), index: 0, count: 1 });
    for (const m of received) expect(m.at).toBeGreaterThanOrEqual(before - 1_000);
    await stream.close();
  });

  it('goes on where it was with a partition it keeps through a rebalance, not from startOffsets again', async () => {
    const stream = new KafkaClickStream<number>({
      brokers: brokers ?? [],
      topic: newTopic(),
      partitionCount: 2,
    });
    const start = await stream.endOffsets();
    const keys = Array.from({ length: 20 }, (_, n) => `link-${n}`);
    expect(new Set(keys.map((key) => partitionFor(key, 2))).size).toBe(2);
    const publish = (from: number) => stream.publish(keys.map((key, n) => ({ key, value: from + n })));
    const read = { first: [] as string[], second: [] as string[] };
    const member = (name: keyof typeof read) =>
      stream.consume({
        groupId: `rebalance-${process.pid}`,
        autoCommit: false,
        // A consumer that stores its offsets with work it has not written yet: still the first ones.
        startOffsets: async () => new Map(start),
        eachBatch: async (batch) => {
          for (const m of batch.messages) read[name].push(`${m.partition}@${m.offset}`);
        },
      });
    const first = member('first');
    await publish(0);
    await expect.poll(() => read.first.length, { timeout: 15_000 }).toBe(20);
    const second = member('second'); // the group rebalances: each member gets one partition
    await second.active;
    await publish(20);
    await expect.poll(() => new Set([...read.first, ...read.second]).size, { timeout: 15_000 }).toBe(40);
    await Promise.all([first.stop(), second.stop()]);
    // The first member read its kept partition once; the second started its own at startOffsets.
    expect(read.first.length).toBe(new Set(read.first).size);
    await stream.close();
  }, 40_000);

  it('keeps a member whose handler takes longer than its session, and does not hand its batch out again', async () => {
    const stream = new KafkaClickStream<number>({
      brokers: brokers ?? [],
      topic: newTopic(),
      partitionCount: 1,
    });
    await stream.publish([{ key: 'k', value: 1 }]);
    const handled: number[] = [];
    const errors: unknown[] = [];
    const consumer = stream.consume({
      groupId: `slow-${process.pid}`,
      eachBatch: async (batch) => {
        // Longer than the 10-s session: kafkajs alone would heartbeat only after it.
        if (handled.length === 0) await new Promise((resolve) => setTimeout(resolve, 12_000));
        handled.push(...batch.messages.map((m) => m.value));
      },
      onError: (error) => errors.push(error),
    });
    await expect.poll(() => handled, { timeout: 20_000, interval: 200 }).toEqual([1]);
    await stream.publish([{ key: 'k', value: 2 }]);
    await expect.poll(() => handled, { timeout: 10_000 }).toEqual([1, 2]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(handled).toEqual([1, 2]);
    expect(errors).toEqual([]);
    await consumer.stop();
    await stream.close();
  }, 40_000);
});

describe('kafka click stream without a broker', () => {
  it('rejects a publish within its bound, and endOffsets, when nothing listens at the address', async () => {
    const port = await freePort(); // nothing listens there
    const stream = new KafkaClickStream({ brokers: [`127.0.0.1:${port}`], partitionCount: 2 });
    let started = performance.now();
    await expect(stream.publish([{ key: 'k', value: 1 }], { id: 'p' })).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(11_000);
    started = performance.now();
    await expect(stream.endOffsets()).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(11_000);
    await stream.close();
  }, 30_000);

  it('rejects a publish and endOffsets within the bound when the broker accepts and never answers', async () => {
    const silent = net.createServer(() => {}); // takes connections, says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const stream = new KafkaClickStream({
      brokers: [`127.0.0.1:${port}`],
      partitionCount: 2,
      timeoutMs: 2_000,
    });
    try {
      let started = performance.now();
      await expect(stream.publish([{ key: 'k', value: 1 }])).rejects.toThrow(/within 2000 ms/);
      expect(performance.now() - started).toBeLessThan(5_000); // 2 s, and room for a busy machine
      started = performance.now();
      await expect(stream.endOffsets()).rejects.toThrow(); // no answer, or the connection given up
      expect(performance.now() - started).toBeLessThan(5_000); // 2 s, and room for a busy machine
      // A consumer keeps trying in the background, reports why, and stops when asked.
      const errors: unknown[] = [];
      const consumer = stream.consume({
        groupId: 'nobody',
        eachBatch: async () => {},
        onError: (error) => errors.push(error),
      });
      await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
      await consumer.stop();
    } finally {
      await stream.close();
      silent.close();
    }
  }, 30_000);
});
