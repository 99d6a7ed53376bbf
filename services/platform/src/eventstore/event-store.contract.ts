import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Decider,
  defineEvent,
  EventRegistry,
  type EventsIn,
  eventGroup,
  InvalidEventError,
} from '@sniplink/contracts';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { systemClock } from '../time/clock';
import { channelOf, enterChannel, runAs } from './command-context';
import { handleCommand } from './command-handler';
import {
  comparePositions,
  type EventStore,
  type EventToAppend,
  type LogPosition,
  type RecordedEvent,
  START,
  WrongExpectedRevisionError,
} from './port';

/** Holds the commit of every append to one stream until released (an adapter that can interleave commits). */
export interface CommitHold {
  /** Resolves once an append to the held stream is waiting to commit. */
  untilBlocked(): Promise<void>;
  release(): Promise<void>;
}

export interface EventStoreUnderTest {
  store: EventStore;
  cleanup(): Promise<void>;
}

const counted = z.object({ n: z.number().int() });
/** The event types the contract appends; a store refuses any other. */
const contractEvents = eventGroup(
  ...['ThingHappened', 'Wanted', 'Unwanted', 'Late', 'Early'].map((type) =>
    defineEvent({ type, version: 1, schema: counted }),
  ),
  defineEvent({ type: 'Raced', version: 1, schema: z.object({ writer: z.number().int() }) }),
  defineEvent({ type: 'Kept', version: 1, schema: z.object({ tags: z.array(z.string()) }) }),
);
export const contractRegistry = new EventRegistry([contractEvents]);

let streamCounter = 0;
export const newStream = (prefix = 'contract') => `${prefix}-${process.pid}-${Date.now()}-${++streamCounter}`;
export const anEvent = (type = 'ThingHappened', data: unknown = { n: 1 }): EventToAppend => ({
  id: uuidv7(),
  type,
  data,
  metadata: { source: 'contract' },
  actorId: 'user-1',
  correlationId: 'request-1',
  causationId: 'command-1',
  occurredAt: new Date('2026-11-22T10:00:00.000Z'),
});
const events = (count: number, type?: string) =>
  Array.from({ length: count }, (_, i) => anEvent(type, { n: i }));

/** Collects from a subscription until `count` events arrived (or fails after `timeoutMs`). */
export async function collect(iterable: AsyncIterable<RecordedEvent>, count: number, timeoutMs = 15_000) {
  const received: RecordedEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  const iterator = iterable[Symbol.asyncIterator]();
  while (received.length < count) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const next = await Promise.race([iterator.next(), sleep(remaining).then(() => 'timeout' as const)]);
    if (next === 'timeout' || next.done) break;
    received.push(next.value);
  }
  return received;
}

/**
 * Reads the whole global log after `after`, page by page, until it holds at least `atLeast` events, or
 * they satisfy it (or ten seconds have passed). A store may show an append in the global log only once every transaction that
 * began before it has ended (PostgreSQL's horizon is the whole server's, another database's too), so a
 * reader of what was just appended waits for it as a projection does.
 */
export async function readEverything(
  store: EventStore,
  after: LogPosition = START,
  atLeast: number | ((events: RecordedEvent[]) => boolean) = 1,
) {
  const enough = typeof atLeast === 'number' ? (all: RecordedEvent[]) => all.length >= atLeast : atLeast;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const all: RecordedEvent[] = [];
    let position = after;
    for (;;) {
      const page = await store.readAll({ after: position, maxCount: 97 });
      all.push(...page.events);
      position = page.next;
      if (page.events.length < 97) break;
    }
    if (enough(all) || Date.now() > deadline) return all;
    await sleep(20);
  }
}

/**
 * How a store recognises a re-sent append. Both kinds answer a re-send at its own expected revision as the
 * first time and store it once, even after the stream moved on (and under `any`).
 * - `by-id`: an event id is stored once in the whole store (PostgreSQL's unique index, the in-memory map),
 *   so the same ids at any other expected revision are refused as a conflict.
 * - `by-position`: the server looks for the ids where the append's expected revision puts them
 *   (EventStoreDB; under `any`, in its cache of recent ids). The same ids sent with the stream's current
 *   revision are new events to it, and are appended again.
 */
export type Idempotence = 'by-id' | 'by-position';

/**
 * The behaviour every event store adapter must show. Each adapter's test file calls this with a factory
 * for a fresh, empty store. One case is not here: an append whose commit is held open while later appends
 * commit, which a reader must not skip. Only a store whose commits can interleave can show it, so it runs
 * in postgres.test.ts; the in-memory store checks and stores an append in one turn of the event loop.
 */
export function eventStoreContract(
  adapterName: string,
  create: (registry: EventRegistry) => Promise<EventStoreUnderTest>,
  { idempotence = 'by-id' }: { idempotence?: Idempotence } = {},
): void {
  describe(`event store contract: ${adapterName}`, () => {
    let subject: EventStoreUnderTest;
    let store: EventStore;
    beforeAll(async () => {
      subject = await create(contractRegistry);
      store = subject.store;
    });
    afterAll(async () => subject?.cleanup());

    it('appends to a new stream and reads it back in order, data and envelope intact', async () => {
      const stream = newStream();
      const appended = events(3);
      const result = await store.appendToStream(stream, appended, 'no_stream');
      expect(result.nextExpectedRevision).toBe(2n);
      const read = await store.readStream(stream);
      expect(read.map((e) => [e.id, e.revision, e.type, e.data])).toEqual(
        appended.map((e, i) => [e.id, BigInt(i), e.type, { n: i }]),
      );
      expect(read[0]).toMatchObject({
        streamId: stream,
        actorId: 'user-1',
        correlationId: 'request-1',
        causationId: 'command-1',
        schemaVersion: 1,
        metadata: { source: 'contract' },
      });
      expect(read[0]?.occurredAt.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      expect(comparePositions(read[2]?.globalPosition ?? START, result.position)).toBe(0);
    });

    it("keeps the channel a command's context stamps in the metadata, through the stream and the global log", async () => {
      const stream = newStream();
      const decider: Decider<null, null, EventsIn<typeof contractEvents>> = {
        events: contractEvents,
        initialState: () => null,
        evolve: () => null,
        decide: () => [{ type: 'ThingHappened', data: { n: 7 } }],
      };
      const before = await store.headPosition();
      const { position } = await runAs('admin-1', () => {
        enterChannel('admin-console');
        return handleCommand(store, stream, decider, null, { clock: systemClock });
      });
      const [fromStream] = await store.readStream(stream);
      expect(fromStream).toMatchObject({ actorId: 'admin-1', metadata: { channel: 'admin-console' } });
      const fromLog = (await readEverything(store, before)).find((event) => event.streamId === stream);
      expect(fromLog && channelOf(fromLog)).toBe('admin-console');
      expect(comparePositions(fromLog?.globalPosition ?? START, position ?? START)).toBe(0);
    });

    it('reads a missing stream as empty, and reads backwards and from a revision', async () => {
      expect(await store.readStream(newStream())).toEqual([]);
      const stream = newStream();
      await store.appendToStream(stream, events(5), 'no_stream');
      const backwards = await store.readStream(stream, { direction: 'backwards', maxCount: 2 });
      expect(backwards.map((e) => e.revision)).toEqual([4n, 3n]);
      const fromTwo = await store.readStream(stream, { fromRevision: 2n });
      expect(fromTwo.map((e) => e.revision)).toEqual([2n, 3n, 4n]);
    });

    it('enforces each kind of expected revision', async () => {
      const stream = newStream();
      await expect(store.appendToStream(stream, events(1), 0n)).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(store.appendToStream(stream, events(1), 'stream_exists')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await store.appendToStream(stream, events(1), 'no_stream');
      const noStream = store.appendToStream(stream, events(1), 'no_stream');
      await expect(noStream).rejects.toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0n });
      await expect(store.appendToStream(stream, events(1), 5n)).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect((await store.appendToStream(stream, events(1), 0n)).nextExpectedRevision).toBe(1n);
      expect((await store.appendToStream(stream, events(1), 'stream_exists')).nextExpectedRevision).toBe(2n);
      expect((await store.appendToStream(stream, events(2), 'any')).nextExpectedRevision).toBe(4n);
      expect((await store.appendToStream(newStream(), events(1), 'any')).nextExpectedRevision).toBe(0n);
      expect(await store.readStream(stream)).toHaveLength(5);
    });

    it('lets exactly one of 50 concurrent appends with the same expected revision win', async () => {
      const stream = newStream();
      await store.appendToStream(stream, events(1), 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          store.appendToStream(stream, [anEvent('Raced', { writer: i })], 0n),
        ),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o) => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const o of lost)
        expect((o as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n]);
    });

    it('also settles 50 concurrent creations of one stream with exactly one winner', async () => {
      const stream = newStream();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, () => store.appendToStream(stream, events(1), 'no_stream')),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('refuses an append without events, with an id that is not a UUID or one id twice, storing nothing', async () => {
      const stream = newStream();
      const twice = anEvent();
      for (const refused of [[], [{ ...anEvent(), id: 'not-a-uuid' }], [twice, twice]]) {
        await expect(store.appendToStream(stream, refused, 'any')).rejects.toBeInstanceOf(TypeError);
      }
      expect(await store.readStream(stream)).toEqual([]);
    });

    it('refuses an event off its schema or of an undeclared type, naming the type and field, storing nothing', async () => {
      const stream = newStream();
      const before = await store.headPosition();
      const offSchema = store.appendToStream(
        stream,
        [anEvent('Kept', { tags: ['a'] }), anEvent('Kept', { tags: ['b', 7] })],
        'any',
      );
      await expect(offSchema).rejects.toBeInstanceOf(InvalidEventError);
      await expect(offSchema).rejects.toThrow(/Event Kept is invalid at tags\.1: /);
      const undeclared = store.appendToStream(stream, [anEvent('Nobody declared this')], 'any');
      await expect(undeclared).rejects.toThrow(/Event Nobody declared this is invalid: no such event type/);
      expect(await store.readStream(stream)).toEqual([]);
      expect(comparePositions(await store.headPosition(), before)).toBe(0);
      // Refused, not half-taken: the stream is still new.
      expect((await store.appendToStream(stream, events(1), 'no_stream')).nextExpectedRevision).toBe(0n);
    });

    it('keeps what was appended: changing an appended or a read object changes nothing stored', async () => {
      const stream = newStream();
      const event = anEvent('Kept', { tags: ['a'] });
      await store.appendToStream(stream, [event], 'no_stream');
      (event.data as { tags: string[] }).tags.push('changed by the writer');
      const [read] = await store.readStream(stream);
      expect(read?.data).toEqual({ tags: ['a'] });
      (read?.data as { tags: string[] } | undefined)?.tags.push('changed by a reader');
      expect((await store.readStream(stream))[0]?.data).toEqual({ tags: ['a'] });
    });

    it('stores a re-sent append once and answers it as the first time', async () => {
      const stream = newStream();
      await store.appendToStream(stream, events(1), 'no_stream');
      const batch = events(2);
      const first = await store.appendToStream(stream, batch, 0n);
      const again = await store.appendToStream(stream, batch, 0n);
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(comparePositions(again.position, first.position)).toBe(0);
      // Still a retry after the stream moved on, and under "any".
      await store.appendToStream(stream, events(1), 2n);
      expect((await store.appendToStream(stream, batch, 0n)).nextExpectedRevision).toBe(2n);
      expect((await store.appendToStream(stream, batch, 'any')).nextExpectedRevision).toBe(2n);
      expect(await store.readStream(stream)).toHaveLength(4);
      if (idempotence === 'by-id') {
        // Same ids at a different expected revision is not a retry.
        await expect(store.appendToStream(stream, batch, 3n)).rejects.toBeInstanceOf(
          WrongExpectedRevisionError,
        );
      } else {
        // Sent at the stream's end, the same ids are a new append to a store that looks by position.
        expect((await store.appendToStream(stream, batch, 3n)).nextExpectedRevision).toBe(5n);
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual([
          expect.any(String),
          ...batch.map((e) => e.id),
          expect.any(String),
          ...batch.map((e) => e.id),
        ]);
      }
      const created = events(1);
      const newOne = newStream();
      await store.appendToStream(newOne, created, 'no_stream');
      await store.appendToStream(newOne, created, 'no_stream');
      expect(await store.readStream(newOne)).toHaveLength(1);
    });

    it('takes an event id in capitals as the same id, as PostgreSQL does a uuid', async () => {
      const stream = newStream();
      const shouted = { ...anEvent(), id: uuidv7().toUpperCase() };
      const first = await store.appendToStream(stream, [shouted], 'no_stream');
      const again = await store.appendToStream(
        stream,
        [{ ...shouted, id: shouted.id.toLowerCase() }],
        'no_stream',
      );
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual([shouted.id.toLowerCase()]);
    });

    it('gives strictly increasing positions in global order, and pages through them without loss', async () => {
      const before = await store.headPosition();
      const streams = Array.from({ length: 40 }, () => newStream('order'));
      await Promise.all(
        streams.map((stream, i) => store.appendToStream(stream, events(1 + (i % 3)), 'no_stream')),
      );
      const written = streams.reduce((sum, _, i) => sum + 1 + (i % 3), 0);
      // An earlier test's append that became visible since `before` may come first: only ours count.
      const ours = new Set(streams);
      const oursOf = (all: RecordedEvent[]) => all.filter((e) => ours.has(e.streamId));
      const read = oursOf(await readEverything(store, before, (all) => oursOf(all).length >= written));
      expect(read).toHaveLength(written);
      for (let i = 1; i < read.length; i++) {
        expect(
          comparePositions(read[i - 1]?.globalPosition ?? START, read[i]?.globalPosition ?? START),
          `${i}: ${JSON.stringify(read.slice(i - 1, i + 1).map((e) => [String(e.globalPosition.commit), String(e.globalPosition.prepare)]))}`,
        ).toBe(-1);
      }
      expect(new Set(read.map((e) => e.id)).size).toBe(written);
      expect(comparePositions(await store.headPosition(), read.at(-1)?.globalPosition ?? START)).toBe(0);
    });

    it('filters the global log by event type and moves the position past the rest', async () => {
      const before = await store.headPosition();
      await store.appendToStream(
        newStream(),
        [anEvent('Wanted'), anEvent('Unwanted'), anEvent('Wanted')],
        'no_stream',
      );
      await store.appendToStream(newStream(), [anEvent('Unwanted')], 'no_stream');
      await readEverything(store, before, (all) => all.filter((e) => e.type === 'Unwanted').length >= 2);
      const page = await store.readAll({ after: before, types: ['Wanted'], maxCount: 10 });
      expect(page.events.map((e) => e.type)).toEqual(['Wanted', 'Wanted']);
      expect(comparePositions(page.next, await store.headPosition())).toBe(0);
    });

    it('delivers every later event exactly once and in order to a subscription started mid-stream', async () => {
      const start = await store.headPosition();
      const earlier = Array.from({ length: 10 }, () => newStream('mid'));
      for (const stream of earlier) await store.appendToStream(stream, events(5), 'no_stream');
      // Only ours: an earlier test's append that became visible since `start` may come first.
      const oursOf = (all: RecordedEvent[]) => all.filter((e) => earlier.includes(e.streamId));
      const history = oursOf(await readEverything(store, start, (all) => oursOf(all).length >= 50));
      const from = history[24]?.globalPosition ?? START;
      const subscription = store.subscribeToAll({ after: from, batchSize: 7 });
      const writers = Array.from({ length: 4 }, async (_, w) => {
        const stream = newStream(`live${w}`);
        for (let i = 0; i < 25; i++)
          await store.appendToStream(stream, events(2), i === 0 ? 'no_stream' : BigInt(2 * i - 1));
      });
      const received = collect(subscription, 25 + 200);
      await Promise.all(writers);
      const got = await received;
      await subscription.close();
      const expected = await readEverything(store, from, 225);
      expect(expected).toHaveLength(225);
      expect(got.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    });

    it('hands a caught-up subscription the next append, and ends it waiting when closed', async () => {
      const subscription = store.subscribeToAll({ after: await store.headPosition() });
      const iterator = subscription[Symbol.asyncIterator]();
      const next = iterator.next();
      await sleep(100); // Not for correctness: so that the subscription has caught up and waits.
      const stream = newStream();
      await store.appendToStream(stream, events(1), 'no_stream');
      expect(await next).toMatchObject({ done: false, value: { streamId: stream } });
      const waiting = iterator.next();
      await sleep(100);
      await subscription.close();
      expect(await waiting).toMatchObject({ done: true });
    });

    it('tells an append listener of an append, and stops telling it once it stopped listening', async () => {
      let heard = 0;
      const stopListening = await store.onAppended(() => heard++);
      await store.appendToStream(newStream(), events(1), 'no_stream');
      await expect.poll(() => heard, { timeout: 10_000 }).toBeGreaterThan(0);
      stopListening();
      await sleep(200); // Not for correctness: lets a late notification of the first append arrive.
      const before = heard;
      await store.appendToStream(newStream(), events(1), 'no_stream');
      await sleep(200);
      expect(heard).toBe(before);
    });
  });
}
