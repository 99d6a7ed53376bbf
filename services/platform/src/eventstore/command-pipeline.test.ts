import { defineEvent, EventRegistry, type EventsIn, eventGroup, stream } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixedClock } from '../time/clock';
import { commandHandler } from './command-pipeline';
import { InMemoryEventStore } from './in-memory';
import type { ReadModel } from './read-model-waiter';

// A counter per key: enough of a feature to show what the pipeline does around its decider.
const bumpEvents = eventGroup(
  defineEvent({ type: 'Bumped', version: 1, schema: z.object({ by: z.number() }) }),
);
type BumpEvent = EventsIn<typeof bumpEvents>;
const counterStream = stream('counter');
const counters: ReadModel = { name: 'counters' };
const decider = {
  events: bumpEvents,
  initialState: () => 0,
  evolve: (total: number, event: BumpEvent) => total + event.data.by,
  decide: (by: number): BumpEvent[] => (by === 0 ? [] : [{ type: 'Bumped', data: { by } }]),
};

function world(readModelCaughtUp: boolean) {
  const waited: { name: string; timeoutMs: number | undefined }[] = [];
  const deps = {
    eventStore: new InMemoryEventStore(new EventRegistry([bumpEvents])),
    clock: fixedClock('2026-03-01T10:00:00.000Z'),
    readModels: {
      waitFor: async ({ name }: ReadModel, _position: unknown, timeoutMs?: number) => {
        waited.push({ name, timeoutMs });
        return readModelCaughtUp;
      },
    },
  };
  return { deps, waited };
}

describe('commandHandler', () => {
  it("appends to the key's stream, stamped by the service's clock, then waits for the read model it names", async () => {
    const { deps, waited } = world(true);
    const pipeline = commandHandler(deps, { decider, stream: counterStream, projection: counters });
    const result = await pipeline.handle('a', 2);
    expect(result).toMatchObject({ state: 2, caughtUp: true, events: [{ type: 'Bumped' }] });
    const [stored] = await deps.eventStore.readStream('counter-a');
    expect(stored?.occurredAt.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(waited).toEqual([{ name: 'counters', timeoutMs: undefined }]);
    expect(await pipeline.load('a')).toBe(2);
  });

  it('says when the read model did not catch up in time, the events being stored all the same', async () => {
    const { deps } = world(false);
    const pipeline = commandHandler(deps, { decider, stream: counterStream, projection: counters });
    expect(await pipeline.handle('a', 1, { waitMs: 50 })).toMatchObject({ caughtUp: false, state: 1 });
    expect(await pipeline.load('a')).toBe(1);
  });

  it('waits for nothing when nothing was appended, or when the caller waits itself', async () => {
    const { deps, waited } = world(false);
    const pipeline = commandHandler(deps, { decider, stream: counterStream, projection: counters });
    expect(await pipeline.handle('a', 0)).toMatchObject({ position: null, caughtUp: true });
    expect((await pipeline.handle('a', 3, { wait: false })).position).not.toBeNull();
    expect(waited).toEqual([]);
  });

  it("refuses a key its guard refuses before reading any stream, with the guard's error", async () => {
    const { deps } = world(true);
    const pipeline = commandHandler(deps, {
      decider,
      stream: counterStream,
      guard: (key) => {
        if (key !== 'a') throw Object.assign(new Error('No such counter'), { status: 404 });
      },
    });
    await expect(pipeline.handle('b', 1)).rejects.toMatchObject({ status: 404 });
    await expect(pipeline.load('b')).rejects.toMatchObject({ status: 404 });
    expect(await deps.eventStore.readStream('counter-b')).toEqual([]);
  });

  it('runs one command at a time per stream in this process: a burst adds up, with no conflict to retry', async () => {
    const { deps } = world(true);
    const pipeline = commandHandler(deps, { decider, stream: counterStream });
    await Promise.all(Array.from({ length: 20 }, () => pipeline.handle('a', 1, { maxAttempts: 1 })));
    expect(await pipeline.load('a')).toBe(20);
  });

  it("reads only a stream's events after the ones it has folded, and sees what another writer appended", async () => {
    const { deps } = world(true);
    const read: { streamId: string; fromRevision: bigint | undefined; events: number }[] = [];
    const store = deps.eventStore;
    const watched = Object.create(store) as typeof store;
    watched.readStream = async (streamId, options) => {
      const events = await store.readStream(streamId, options);
      read.push({ streamId, fromRevision: options?.fromRevision, events: events.length });
      return events;
    };
    const pipeline = commandHandler({ ...deps, eventStore: watched }, { decider, stream: counterStream });
    for (let i = 0; i < 5; i++) await pipeline.handle('a', 1);
    // Another process (another handler on the same store) appends twice.
    const other = commandHandler(deps, { decider, stream: counterStream });
    await other.handle('a', 10);
    await other.handle('a', 100);
    read.length = 0;

    expect((await pipeline.handle('a', 1)).state).toBe(116);
    expect(await pipeline.load('a')).toBe(116);
    // It had folded revisions 0-3 (its own last append is read back, as any other event): 4-6 are new,
    // and after this command only its own append, 7.
    expect(read).toEqual([
      { streamId: 'counter-a', fromRevision: 4n, events: 3 },
      { streamId: 'counter-a', fromRevision: 7n, events: 1 },
    ]);
  });

  it("decides on the stream's latest state when another writer appends between its read and its append", async () => {
    const { deps } = world(true);
    const pipeline = commandHandler(deps, { decider, stream: counterStream });
    await pipeline.handle('a', 1);
    const store = deps.eventStore;
    let interleaved = false;
    const racing = Object.create(store) as typeof store;
    racing.appendToStream = async (streamId, events, expected) => {
      if (!interleaved) {
        interleaved = true;
        await commandHandler(deps, { decider, stream: counterStream }).handle('a', 10);
      }
      return store.appendToStream(streamId, events, expected);
    };
    const raced = commandHandler({ ...deps, eventStore: racing }, { decider, stream: counterStream });
    await raced.load('a');
    expect((await raced.handle('a', 100)).state).toBe(111);
    expect(await commandHandler(deps, { decider, stream: counterStream }).load('a')).toBe(111);
  });
});
