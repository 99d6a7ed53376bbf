import { randomUUID } from 'node:crypto';
import { type Decider, defineEvent, EventRegistry, type EventsIn, eventGroup } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixedClock, systemClock } from '../time/clock';
import { channelOf, enterChannel, identifyActor, runAs } from './command-context';
import { type HandleOptions, handleCommand, KeyedMutex, loadState } from './command-handler';
import { InMemoryEventStore } from './in-memory';
import type { EventStore } from './port';

// A plan with two link slots: enough of a decider to show what the handler does around one.
type SlotCommand = { type: 'TakeSlot'; linkId: string };
const slotEvents = eventGroup(
  defineEvent({ type: 'SlotTaken', version: 1, schema: z.object({ linkId: z.string() }) }),
);
const registry = new EventRegistry([slotEvents]);
type SlotEvent = EventsIn<typeof slotEvents>;
type SlotState = { taken: string[] };
class PlanLimitReachedError extends Error {
  readonly code = 'PLAN_LIMIT_REACHED';
}
const slotDecider: Decider<SlotCommand, SlotState, SlotEvent> = {
  events: slotEvents,
  initialState: () => ({ taken: [] }),
  evolve: (state, event) => ({ taken: [...state.taken, event.data.linkId] }),
  decide: (command, state) => {
    if (state.taken.includes(command.linkId)) return [];
    if (state.taken.length >= 2) throw new PlanLimitReachedError('Both link slots are taken');
    return [{ type: 'SlotTaken', data: { linkId: command.linkId } }];
  },
};
const PLAN = 'plan-ada';
const take = (linkId: string): SlotCommand => ({ type: 'TakeSlot', linkId });
const taken = (linkId: string): SlotEvent => ({ type: 'SlotTaken', data: { linkId } });

/** The plan's stream as stored: what a reader of the log would see. */
async function storedPlan(store: EventStore): Promise<SlotEvent[]> {
  const events = await store.readStream(PLAN);
  return events.map((event) => {
    const { type, data } = slotEvents.narrow(event);
    return { type, data };
  });
}

/**
 * given(history).meanwhile(...writes).when(command): the plan's stream holds `history`; each `meanwhile`
 * write lands just after one of the handler's reads, as another process's append would (a conflict).
 */
function given(history: SlotEvent[]) {
  const others: SlotEvent[] = [];
  const scenario = {
    meanwhile: (...writes: SlotEvent[]) => {
      others.push(...writes);
      return scenario;
    },
    when: (command: SlotCommand, options: Partial<HandleOptions> = {}) => {
      const run = async () => {
        const store = new InMemoryEventStore(registry);
        if (history.length > 0) await store.appendToStream(PLAN, history.map(asAppend), 'no_stream');
        const written: SlotEvent[] = [];
        let reads = 0;
        const racing: EventStore = {
          appendToStream: store.appendToStream.bind(store),
          readAll: store.readAll.bind(store),
          subscribeToAll: store.subscribeToAll.bind(store),
          headPosition: store.headPosition.bind(store),
          onAppended: store.onAppended.bind(store),
          close: store.close.bind(store),
          readStream: async (streamId, readOptions) => {
            const events = await store.readStream(streamId, readOptions);
            reads += 1;
            const other = others[written.length];
            if (other) {
              await store.appendToStream(PLAN, [asAppend(other)], 'any');
              written.push(other);
            }
            return events;
          },
        };
        const outcome = await handleCommand(racing, PLAN, slotDecider, command, {
          clock: systemClock,
          ...options,
        }).then(
          (result) => ({ result, error: undefined }),
          (error: unknown) => ({ result: undefined, error }),
        );
        return { ...outcome, reads, stored: await storedPlan(store), before: [...history, ...written] };
      };
      return {
        thenAppends: async (expected: SlotEvent[]) => {
          const { result, error, stored, before } = await run();
          expect(error).toBeUndefined();
          expect(result?.events).toEqual(expected);
          expect(stored).toEqual([...before, ...expected]);
          return result;
        },
        thenThrows: async (matcher: Record<string, unknown>) => {
          const { error, stored, before, reads } = await run();
          expect(error).toMatchObject(matcher);
          expect(stored).toEqual(before);
          return { reads };
        },
      };
    },
  };
  return scenario;
}

function asAppend(event: SlotEvent) {
  return { id: randomUUID(), ...event, occurredAt: new Date('2026-11-25T09:00:00.000Z') };
}

describe('handleCommand: read, decide, append at the revision read', () => {
  it('appends what the decider decides and answers with the new state and its position', async () => {
    const result = await given([taken('link-1')])
      .when(take('link-2'))
      .thenAppends([taken('link-2')]);
    expect(result?.state).toEqual({ taken: ['link-1', 'link-2'] });
    expect(result?.position).not.toBeNull();
  });

  it('appends nothing when the decider decides nothing (a command sent twice)', async () => {
    const result = await given([taken('link-1')])
      .when(take('link-1'))
      .thenAppends([]);
    expect(result?.position).toBeNull();
  });

  it('passes on what the decider refuses, appending nothing', async () => {
    await given([taken('link-1'), taken('link-2')])
      .when(take('link-3'))
      .thenThrows({ code: 'PLAN_LIMIT_REACHED' });
  });

  it('records who acted and when on every event it appends', async () => {
    const store = new InMemoryEventStore(registry);
    const clock = fixedClock('2026-11-25T10:00:00.000Z');
    await handleCommand(store, PLAN, slotDecider, take('link-1'), { actorId: 'ada', clock });
    clock.advance(60_000);
    await handleCommand(store, PLAN, slotDecider, take('link-2'), { actorId: 'bob', clock });
    const stored = await store.readStream(PLAN);
    expect(stored.map(({ actorId, occurredAt, revision }) => ({ actorId, occurredAt, revision }))).toEqual([
      { actorId: 'ada', occurredAt: new Date('2026-11-25T10:00:00.000Z'), revision: 0n },
      { actorId: 'bob', occurredAt: new Date('2026-11-25T10:01:00.000Z'), revision: 1n },
    ]);
  });
});

describe('handleCommand: the metadata each event carries', () => {
  it('records the actor and correlation id of the context it runs in, and its own id as the cause', async () => {
    const store = new InMemoryEventStore(registry);
    await runAs(
      'operator',
      () => handleCommand(store, PLAN, slotDecider, take('link-1'), { clock: systemClock }),
      'job-7',
    );
    await runAs(
      'operator',
      () => handleCommand(store, PLAN, slotDecider, take('link-2'), { clock: systemClock }),
      'job-7',
    );
    const [first, second] = await store.readStream(PLAN);
    expect(first).toMatchObject({ actorId: 'operator', correlationId: 'job-7', schemaVersion: 1 });
    expect(second).toMatchObject({ actorId: 'operator', correlationId: 'job-7' });
    expect(first?.causationId).toEqual(expect.any(String));
    expect(second?.causationId).not.toBe(first?.causationId);
  });

  it('records the user a request turns out to be signed in as, and `system` outside any context', async () => {
    const store = new InMemoryEventStore(registry);
    await runAs('anonymous', async () => {
      identifyActor('ada');
      await handleCommand(store, PLAN, slotDecider, take('link-1'), { clock: systemClock });
    });
    await handleCommand(store, PLAN, slotDecider, take('link-2'), { clock: systemClock });
    const [signedIn, alone] = await store.readStream(PLAN);
    expect(signedIn?.actorId).toBe('ada');
    expect(alone?.actorId).toBe('system');
    // A command of its own: it correlates with itself.
    expect(alone?.correlationId).toBe(alone?.causationId);
  });
});

describe('handleCommand: the channel a command came through', () => {
  it("records the admin console's or an operator's channel in the metadata, and none for anyone else", async () => {
    const store = new InMemoryEventStore(registry);
    const handle = (linkId: string) =>
      handleCommand(store, PLAN, slotDecider, take(linkId), { clock: systemClock });
    await runAs('anonymous', async () => {
      identifyActor('admin-1');
      enterChannel('admin-console');
      await handle('link-1');
    });
    await runAs('anonymous', async () => {
      identifyActor('ada');
      await handle('link-2');
    });
    const [console, own] = await store.readStream(PLAN);
    expect(console?.metadata).toEqual({ channel: 'admin-console' });
    expect(channelOf(console ?? { metadata: {} })).toBe('admin-console');
    expect(own?.metadata).toEqual({});
    expect(channelOf(own ?? { metadata: {} })).toBeNull();
  });

  it('reads an unknown channel as none', () => {
    expect(channelOf({ metadata: { channel: 'web' } })).toBeNull();
    expect(channelOf({ metadata: { channel: 42 } })).toBeNull();
    expect(channelOf({ metadata: { channel: 'operator' } })).toBe('operator');
  });
});

describe('handleCommand when another process writes between its read and its append', () => {
  it('retries from a fresh read, so both writes are kept in order', async () => {
    await given([])
      .meanwhile(taken('link-1'))
      .when(take('link-2'))
      .thenAppends([taken('link-2')]);
  });

  it('decides again on what the other process wrote: a command it made redundant appends nothing', async () => {
    await given([]).meanwhile(taken('link-1')).when(take('link-1')).thenAppends([]);
  });

  it('decides again on what the other process wrote: the slot it took is no longer free', async () => {
    await given([taken('link-1')])
      .meanwhile(taken('link-2'))
      .when(take('link-3'))
      .thenThrows({ code: 'PLAN_LIMIT_REACHED' });
  });

  it('gives up with ConcurrencyExhaustedError after its budget of attempts, appending nothing of its own', async () => {
    const { reads } = await given([])
      .meanwhile(taken('link-1'), taken('link-2'))
      .when(take('link-3'), { maxAttempts: 2 })
      .thenThrows({ name: 'ConcurrencyExhaustedError' });
    expect(reads).toBe(2);
  });
});

describe('KeyedMutex around handleCommand', () => {
  it('lets a burst of commands on one stream through in order, without a single conflict', async () => {
    const store = new InMemoryEventStore(registry);
    const mutex = new KeyedMutex();
    // No limit here: every command appends, and with one attempt each, any conflict would fail one.
    const noLimit = { ...slotDecider, decide: (command: SlotCommand) => [taken(command.linkId)] };
    const burst = Array.from({ length: 20 }, (_, i) =>
      mutex.run(PLAN, () =>
        handleCommand(store, PLAN, noLimit, take(`link-${i}`), { clock: systemClock, maxAttempts: 1 }),
      ),
    );
    await Promise.all(burst);
    const stored = await storedPlan(store);
    expect(stored.map((event) => event.data.linkId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `link-${i}`),
    );
  });

  it('does not hold up the next command for a key when one fails', async () => {
    const mutex = new KeyedMutex();
    const failed = mutex.run(PLAN, async () => {
      throw new PlanLimitReachedError('refused');
    });
    const next = mutex.run(PLAN, async () => 'ran');
    await expect(failed).rejects.toBeInstanceOf(PlanLimitReachedError);
    expect(await next).toBe('ran');
  });
});

describe('loadState', () => {
  it('folds the stream without deciding or appending anything', async () => {
    const store = new InMemoryEventStore(registry);
    await store.appendToStream(PLAN, [asAppend(taken('link-1')), asAppend(taken('link-2'))], 'no_stream');
    expect(await loadState(store, PLAN, slotDecider)).toEqual({ taken: ['link-1', 'link-2'] });
    expect(await loadState(store, 'plan-nobody', slotDecider)).toEqual({ taken: [] });
    expect(await store.readStream(PLAN)).toHaveLength(2);
  });
});
