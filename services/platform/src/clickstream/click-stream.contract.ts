import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitHold } from '../eventstore/event-store.contract';
import {
  type ClickStream,
  type ConsumedMessage,
  type ConsumeOptions,
  type Offsets,
  partitionFor,
} from './port';

export interface ClickStreamUnderTest {
  stream: ClickStream<Payload>;
  /** Holds the commit of every publish containing this key (absent where commits cannot interleave). */
  holdCommits?(key: string): Promise<CommitHold>;
  cleanup(): Promise<void>;
}

interface Payload {
  n: number;
  from: string;
}

let groupCounter = 0;
const newGroup = () => `group-${process.pid}-${Date.now()}-${++groupCounter}`;
const messages = (from: string, count: number, key = (i: number) => `link-${from}-${i % 7}`) =>
  Array.from({ length: count }, (_, i) => ({ key: key(i), value: { n: i, from } }));

/** Runs a consumer until it has received `count` messages (or the timeout), then stops it. */
async function consumeCount(
  stream: ClickStream<Payload>,
  count: number,
  options: Partial<ConsumeOptions<Payload>> & { groupId: string },
  timeoutMs = 15_000,
): Promise<ConsumedMessage<Payload>[]> {
  const received: ConsumedMessage<Payload>[] = [];
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const consumer = stream.consume({
    ...options,
    eachBatch: async (batch) => {
      await options.eachBatch?.(batch);
      received.push(...batch.messages);
      if (received.length >= count) done();
    },
  });
  await Promise.race([finished, sleep(timeoutMs)]);
  await consumer.stop();
  return received;
}

/** Offsets must start where asked and run without gaps or repeats, per partition. */
function expectContiguousPerPartition(received: ConsumedMessage<Payload>[], start: Offsets = new Map()) {
  const byPartition = new Map<number, bigint[]>();
  for (const m of received) byPartition.set(m.partition, [...(byPartition.get(m.partition) ?? []), m.offset]);
  for (const [partition, offsets] of byPartition) {
    const first = start.get(partition) ?? 0n;
    expect(offsets).toEqual(offsets.map((_, i) => first + BigInt(i)));
  }
}

const sumOf = (offsets: Offsets) => Number([...offsets.values()].reduce((sum, next) => sum + next, 0n));

/**
 * What a consumer that must count once keeps (see PublishOptions.id): per partition and publish id, the
 * first copy of its part, which must lie in one piece (`index` 0 to `count` - 1 at consecutive offsets);
 * messages without `publish` are kept as they come.
 */
function firstCopyOfEachPart(received: ConsumedMessage<Payload>[]): ConsumedMessage<Payload>[] {
  const byOffset = [...received].sort((a, b) => a.partition - b.partition || Number(a.offset - b.offset));
  /** Partition and publish id -> the offset where the first copy of that part starts. */
  const firstCopyAt = new Map<string, bigint>();
  const kept: ConsumedMessage<Payload>[] = [];
  for (const [i, m] of byOffset.entries()) {
    if (!m.publish) {
      kept.push(m);
      continue;
    }
    const { id, index, count } = m.publish;
    const partStart = byOffset[i - index];
    expect(partStart?.publish).toEqual({ id, index: 0, count });
    expect(partStart?.offset).toBe(m.offset - BigInt(index));
    const part = `${m.partition}/${id}`;
    if (!firstCopyAt.has(part)) firstCopyAt.set(part, m.offset - BigInt(index));
    if (firstCopyAt.get(part) === m.offset - BigInt(index)) kept.push(m);
  }
  return kept;
}

/** The behaviour every click stream adapter must show, called by each adapter's test file. */
export function clickStreamContract(adapterName: string, create: () => Promise<ClickStreamUnderTest>): void {
  describe(`click stream contract: ${adapterName}`, () => {
    let subject: ClickStreamUnderTest;
    let stream: ClickStream<Payload>;
    beforeAll(async () => {
      subject = await create();
      stream = subject.stream;
    });
    afterAll(async () => subject?.cleanup());

    it('publishes a batch and delivers it from the earliest offset, keyed messages in order per partition', async () => {
      const start = await stream.endOffsets();
      const sent = messages('a', 200);
      await stream.publish(sent);
      const got = await consumeCount(stream, 200, {
        groupId: newGroup(),
        startOffsets: async () => new Map(start),
      });
      expect(got).toHaveLength(200);
      expectContiguousPerPartition(got, start);
      for (const m of got) expect(m.partition).toBe(partitionFor(m.key, stream.partitionCount));
      const byKey = new Map<string, number[]>();
      for (const m of got) byKey.set(m.key, [...(byKey.get(m.key) ?? []), m.value.n]);
      for (const ns of byKey.values()) expect(ns).toEqual([...ns].sort((x, y) => x - y));
      expect(got.map((m) => m.value.n).sort((x, y) => x - y)).toEqual(sent.map((m) => m.value.n));
    });

    it('resumes a consumer group from its stored offsets, without redelivering what it committed', async () => {
      const groupId = newGroup();
      const start = await stream.endOffsets();
      await stream.commitOffsets(groupId, start);
      await stream.publish(messages('b1', 50));
      const first = await consumeCount(stream, 50, { groupId });
      expect(first).toHaveLength(50);
      const committed = await stream.committedOffsets(groupId);
      expect(committed).toEqual(await stream.endOffsets());
      await stream.publish(messages('b2', 30));
      const second = await consumeCount(stream, 30, { groupId }, 3_000);
      expect(second.map((m) => m.value.from)).toEqual(Array(30).fill('b2'));
      expectContiguousPerPartition(second, committed);
    });

    it('starts from offsets the consumer stored itself, and leaves the group offsets alone then', async () => {
      await stream.publish(messages('c0', 20));
      const resumeAt = await stream.endOffsets();
      await stream.publish(messages('c1', 25));
      const groupId = newGroup();
      const got = await consumeCount(
        stream,
        25,
        { groupId, autoCommit: false, startOffsets: async () => resumeAt },
        3_000,
      );
      expect(got.map((m) => m.value.from)).toEqual(Array(25).fill('c1'));
      expect((await stream.committedOffsets(groupId)).size).toBe(0);
    });

    it('delivers every message of 20 concurrent publishers exactly once', async () => {
      const start = await stream.endOffsets();
      await Promise.all(Array.from({ length: 20 }, (_, p) => stream.publish(messages(`d${p}`, 50))));
      const got = await consumeCount(stream, 1_000, {
        groupId: newGroup(),
        startOffsets: async () => new Map(start),
      });
      expect(got).toHaveLength(1_000);
      expect(new Set(got.map((m) => `${m.value.from}/${m.value.n}`)).size).toBe(1_000);
      expectContiguousPerPartition(got, start);
    });

    it('shares a group between two members without delivering a message twice', async () => {
      const groupId = newGroup();
      await stream.commitOffsets(groupId, await stream.endOffsets());
      const received: string[] = [];
      const member = () =>
        stream.consume({
          groupId,
          eachBatch: async (b) =>
            void received.push(...b.messages.map((m) => `${m.value.from}/${m.value.n}`)),
        });
      const one = member();
      const two = member();
      await Promise.race([one.active, two.active]);
      await stream.publish(messages('e', 120));
      for (let i = 0; i < 300 && received.length < 120; i++) await sleep(20);
      await Promise.all([one.stop(), two.stop()]);
      expect(received).toHaveLength(120);
      expect(new Set(received).size).toBe(120);
    });

    it('marks every copy of a publish re-sent with the same id, so keeping the first copy of each part counts it once', async () => {
      const start = await stream.endOffsets();
      const batch = messages('idem', 30);
      const id = `publish-${newGroup()}`;
      await Promise.all([stream.publish(batch, { id }), stream.publish(batch, { id })]);
      await stream.publish(batch, { id });
      await stream.publish(messages('idem-other', 5), { id: `${id}-other` });
      // A stream may store a re-sent publish again (Kafka) or once (PostgreSQL): between 35 and 95.
      const stored = sumOf(await stream.endOffsets()) - sumOf(start);
      expect(stored).toBeGreaterThanOrEqual(35);
      expect(stored).toBeLessThanOrEqual(95);
      const got = await consumeCount(stream, stored, {
        groupId: newGroup(),
        startOffsets: async () => new Map(start),
      });
      expect(got).toHaveLength(stored);
      expectContiguousPerPartition(got, start);
      if (stored > 35) for (const m of got) expect(m.publish?.id).toMatch(new RegExp(`^${id}`));
      const counted = firstCopyOfEachPart(got);
      const countedNs = counted.filter((m) => m.value.from === 'idem').map((m) => m.value.n);
      expect(countedNs.sort((x, y) => x - y)).toEqual(batch.map((m) => m.value.n));
      expect(counted.filter((m) => m.value.from === 'idem-other')).toHaveLength(5);
    });

    it('delivers from any offset, also one inside an earlier publish, in batches of at most maxBatchSize', async () => {
      const start = await stream.endOffsets();
      await stream.publish(messages('mid', 200, () => 'one-key'));
      const partition = partitionFor('one-key', stream.partitionCount);
      const from = new Map(start);
      from.set(partition, (start.get(partition) ?? 0n) + 77n);
      const sizes: number[] = [];
      const got = await consumeCount(stream, 123, {
        groupId: newGroup(),
        maxBatchSize: 50,
        startOffsets: async () => new Map(from),
        eachBatch: async (batch) => void sizes.push(batch.messages.length),
      });
      expect(got.map((m) => m.value.n)).toEqual(Array.from({ length: 123 }, (_, i) => 77 + i));
      expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
      expectContiguousPerPartition(got, from);
    });

    it('never lets a consumer skip a message whose publish commits after later ones', async (ctx) => {
      if (!subject.holdCommits) {
        const why = 'commits of this stream cannot interleave';
        console.warn(`${adapterName}: skipped "a publish committing after later ones": ${why}`);
        ctx.skip(why);
        return;
      }
      const start = await stream.endOffsets();
      const heldKey = `held-${Date.now()}`;
      const hold = await subject.holdCommits(heldKey);
      const late = stream.publish([{ key: heldKey, value: { n: 0, from: 'late' } }]);
      await hold.untilBlocked();
      // Every other partition goes on; the held one's later publishes queue behind it, as in Kafka.
      const others = messages('f', 40, (i) => `other-${i}`);
      const heldPartition = partitionFor(heldKey, stream.partitionCount);
      const notBlocked = others.filter((m) => partitionFor(m.key, stream.partitionCount) !== heldPartition);
      await stream.publish(notBlocked);
      const consumed = consumeCount(stream, notBlocked.length + 1, {
        groupId: newGroup(),
        startOffsets: async () => new Map(start),
      });
      await sleep(200);
      await hold.release();
      await late;
      const got = await consumed;
      expect(got).toHaveLength(notBlocked.length + 1);
      expect(got.filter((m) => m.value.from === 'late')).toHaveLength(1);
      expectContiguousPerPartition(got, start);
    });

    it('delivers every later message exactly once, in order per partition, to a consumer started mid-stream', async () => {
      await stream.publish(messages('g0', 60));
      const from = await stream.endOffsets();
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 10; i++) await stream.publish(messages(`g${w}-${i}`, 15));
      });
      const got = consumeCount(stream, 600, { groupId: newGroup(), startOffsets: async () => new Map(from) });
      await Promise.all(writers);
      const received = await got;
      expect(received).toHaveLength(600);
      expect(new Set(received.map((m) => `${m.value.from}/${m.value.n}`)).size).toBe(600);
      expect(received.some((m) => m.value.from === 'g0')).toBe(false);
      expectContiguousPerPartition(received, from);
    });

    it('deletes only messages below the given offsets and older than the given time; the rest reads on', async () => {
      await stream.publish(messages('old', 40));
      const below = await stream.endOffsets();
      await stream.publish(messages('new', 30));
      const inAMinute = new Date(Date.now() + 60_000);
      expect(await stream.deleteRecords(below, { publishedBefore: new Date(Date.now() - 60_000) })).toBe(0);
      expect(await stream.deleteRecords(new Map(), { publishedBefore: inAMinute })).toBe(0);
      const deleted = await stream.deleteRecords(below, { publishedBefore: inAMinute });
      // Earlier tests' messages sit below these offsets too: at least this test's 40 go.
      expect(deleted).toBeGreaterThanOrEqual(40);
      expect(await stream.deleteRecords(below, { publishedBefore: inAMinute })).toBe(0);
      const got = await consumeCount(stream, 30, {
        groupId: newGroup(),
        startOffsets: async () => new Map(below),
      });
      expect(got.map((m) => m.value.from)).toEqual(Array(30).fill('new'));
      expectContiguousPerPartition(got, below);
      expect(await stream.endOffsets()).toEqual(
        new Map(
          [...below].map(([partition, next]) => [
            partition,
            next + BigInt(got.filter((m) => m.partition === partition).length),
          ]),
        ),
      );
    });
  });
}
