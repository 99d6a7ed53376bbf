import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AllStreamResolvedEvent } from '@kurrent/kurrentdb-client';
import { eventRegistry } from '@sniplink/contracts';
import { serverMissing } from '@sniplink/test-support/run-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { anEvent, contractRegistry, eventStoreContract } from './event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb';
import { LiveAppends, type LiveFeed, subscriptionOver } from './eventstoredb-live';
import {
  actualRevisionOf,
  clientConnectionString,
  fromServerEvent,
  isSystemEvent,
  isUsablePosition,
  positionOf,
  readPositionOf,
  streamStateOf,
  toEventData,
  typeFilterOf,
} from './eventstoredb-mapping';
import { decodePosition, encodePosition, type LogPosition, type RecordedEvent, START } from './port';
import { toRecordedEvent, toStoredEvents } from './stored-events';

// The run's server (test/support/servers.ts): ESDB_URL, a KurrentDB container, or none, and why.
const unavailable = serverMissing('kurrentdb');
const url = process.env.ESDB_URL;

// The shared contract, against a real server. It reads the global log from its head onwards, so give it
// a server no one else writes to while it runs (a fresh container: see docs/testing.md).
if (unavailable) {
  console.warn(`[eventstoredb] contract suite SKIPPED: ${unavailable}`);
  describe.skip(`event store contract: eventstoredb (SKIPPED: ${unavailable})`, () => {
    it('runs the shared event store contract against the server', () => {});
  });
} else {
  eventStoreContract(
    'eventstoredb',
    async (registry) => {
      const store = await EventStoreDbEventStore.connect({ url: url ?? '', registry });
      return { store, cleanup: () => store.close() };
    },
    { idempotence: 'by-position' },
  );
}

/** What the server gives back of an appended event: the client's JSON round trip, and its own fields. */
function asServerReturnsIt(
  appended: ReturnType<typeof toEventData>,
  where: { streamId: string; revision: bigint; position: LogPosition },
): AllStreamResolvedEvent {
  const json = (value: unknown) => JSON.parse(JSON.stringify(value));
  return {
    event: {
      streamId: where.streamId,
      id: appended.id.toUpperCase(),
      type: appended.type,
      isJson: true,
      revision: where.revision,
      created: new Date('2026-11-26T12:00:00.000Z'),
      data: json(appended.data),
      metadata: json(appended.metadata),
      position: where.position,
    },
  } as AllStreamResolvedEvent;
}

describe('EventStoreDB adapter, the parts that need no server', () => {
  const where = { streamId: 'link-1', revision: 4n, position: { commit: 12_345_678n, prepare: 12_345_678n } };

  it("passes each expected revision as the client's stream state, and refuses a negative one", () => {
    expect(['any', 'no_stream', 'stream_exists', 0n, 41n].map((e) => streamStateOf(e as never))).toEqual([
      'any',
      'no_stream',
      'stream_exists',
      0n,
      41n,
    ]);
    expect(() => streamStateOf(-1n)).toThrow(TypeError);
  });

  it('reports the revision a refused append found, a missing stream as no_stream however the server says it', () => {
    expect(actualRevisionOf(7n)).toBe(7n);
    expect(actualRevisionOf(0n)).toBe(0n);
    expect(actualRevisionOf('no_stream')).toBe('no_stream');
    expect(actualRevisionOf(-1n)).toBe('no_stream');
    expect(actualRevisionOf(undefined)).toBe('no_stream');
  });

  it('keeps the envelope and metadata through what the server stores, and reads the id as a lower-case uuid', () => {
    const appended = {
      ...anEvent('Kept', { tags: ['a'] }),
      // A caller's key named like a field of the envelope stays the caller's.
      metadata: { source: 'contract', channel: 'admin-console', actorId: 'not the actor' },
    };
    const [stored] = toStoredEvents(contractRegistry, [appended]);
    if (!stored) throw new Error('no stored event');
    const data = toEventData(stored);
    expect(data).toMatchObject({ id: appended.id, type: 'Kept', contentType: 'application/json' });
    expect(data.metadata).toMatchObject({
      actorId: 'user-1',
      $correlationId: 'request-1',
      $causationId: 'command-1',
      schemaVersion: 1,
    });
    const read = toRecordedEvent(
      contractRegistry,
      fromServerEvent(asServerReturnsIt(data, where).event as never, where.position),
    );
    expect(read).toEqual({
      id: appended.id.toLowerCase(),
      type: 'Kept',
      streamId: 'link-1',
      revision: 4n,
      globalPosition: where.position,
      occurredAt: appended.occurredAt,
      actorId: 'user-1',
      correlationId: 'request-1',
      causationId: 'command-1',
      schemaVersion: 1,
      data: { tags: ['a'] },
      metadata: appended.metadata,
    } satisfies RecordedEvent);
  });

  it('reads an event stored in an older shape in its current one, and one with no envelope as version 1', () => {
    const linkId = '0193a1b2-0000-7000-8000-0000000000aa';
    const v1 = asServerReturnsIt(
      {
        id: '0193a1b2-0000-7000-8000-0000000000bb',
        contentType: 'application/json',
        type: 'ShortCodeReleased',
        data: { linkId },
        metadata: { actorId: null, occurredAt: '2026-11-01T08:00:00.000Z', schemaVersion: 1, metadata: {} },
      },
      where,
    );
    expect(toRecordedEvent(eventRegistry, fromServerEvent(v1.event as never, where.position))).toMatchObject({
      schemaVersion: 1,
      data: { linkId, reason: 'abandoned' },
      occurredAt: new Date('2026-11-01T08:00:00.000Z'),
      correlationId: null,
    });
    const foreign = { ...v1.event, metadata: undefined } as never;
    expect(fromServerEvent(foreign, where.position)).toMatchObject({
      schemaVersion: 1,
      actorId: null,
      metadata: {},
      occurredAt: new Date('2026-11-26T12:00:00.000Z'),
    });
  });

  it("maps positions: START to the client's start, the server's commit/prepare as they are", () => {
    expect(readPositionOf(START)).toBe('start');
    expect(readPositionOf({ commit: 0n, prepare: 0n })).toEqual({ commit: 0n, prepare: 0n });
    expect(positionOf(asServerReturnsIt(toEventData(storedKept()), where))).toEqual(where.position);
    // Without the event's own position (an older server), the resolved event's commit position stands in.
    expect(positionOf({ event: undefined, commitPosition: 99n })).toEqual({ commit: 99n, prepare: 99n });
    expect(isUsablePosition(undefined)).toBe(false);
    expect(isUsablePosition({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n })).toBe(false);
    expect(isUsablePosition(where.position)).toBe(true);
  });

  it('encodes a position past 2^53 for a checkpoint and gets exactly it back', () => {
    const position = { commit: 2n ** 53n + 3n, prepare: 2n ** 53n + 1n };
    expect(encodePosition(position)).toBe('9007199254740995/9007199254740993');
    expect(decodePosition(encodePosition(position))).toEqual(position);
  });

  it('filters by exactly the types asked for, and otherwise leaves out only the system types', () => {
    const matches = (types: readonly string[] | undefined, type: string) =>
      new RegExp(typeFilterOf(types).regex).test(type);
    expect(matches(['Wanted', 'Link.Made'], 'Wanted')).toBe(true);
    expect(matches(['Wanted', 'Link.Made'], 'Link.Made')).toBe(true);
    expect(matches(['Wanted', 'Link.Made'], 'LinkXMade')).toBe(false);
    expect(matches(['Wanted'], 'WantedToo')).toBe(false);
    expect(matches(['Wanted'], 'Unwanted')).toBe(false);
    expect(matches(undefined, 'Wanted')).toBe(true);
    expect(matches(undefined, '$metadata')).toBe(false);
    expect(typeFilterOf(undefined).filterOn).toBe('eventType');
    expect(isSystemEvent({ type: '$>', streamId: '$ce-link' })).toBe(true);
    expect(isSystemEvent({ type: 'Checkpoint', streamId: '$projections-x' })).toBe(true);
    expect(isSystemEvent({ type: 'LinkCreated', streamId: 'link-1' })).toBe(false);
  });

  it("speaks the client's scheme for an esdb:// URL, and leaves a kurrentdb:// one alone", () => {
    expect(clientConnectionString('esdb://db:2113?tls=false')).toBe('kurrentdb://db:2113?tls=false');
    expect(clientConnectionString('esdb+discover://db:2113')).toBe('kurrentdb+discover://db:2113');
    expect(clientConnectionString('kurrentdb://a:1,b:2')).toBe('kurrentdb://a:1,b:2');
  });
});

function storedKept() {
  const [stored] = toStoredEvents(contractRegistry, [anEvent('Kept', { tags: [] })]);
  if (!stored) throw new Error('no stored event');
  return stored;
}

/** The client's live subscription as LiveAppends sees it: events, a confirmation, an error, unsubscribe. */
class FeedStandIn extends EventEmitter implements LiveFeed {
  unsubscribed = false;
  async unsubscribe() {
    this.unsubscribed = true;
  }
  destroy() {}
}

describe('EventStoreDB adapter: one live subscription for every append listener', () => {
  const feeds: FeedStandIn[] = [];
  const live = () =>
    new LiveAppends(() => {
      const feed = new FeedStandIn();
      feeds.push(feed);
      return feed;
    }, 20);
  afterEach(() => {
    feeds.length = 0;
  });

  it('tells listeners they are heard only once the server confirmed, then calls each on every event', async () => {
    const appends = live();
    let heard = 0;
    let listening = false;
    const first = appends
      .listen(() => heard++)
      .then((stop) => {
        listening = true;
        return stop;
      });
    await sleep(10);
    expect(listening).toBe(false);
    feeds[0]?.emit('confirmation');
    const stopFirst = await first;
    const stopSecond = await appends.listen(() => heard++);
    expect(feeds).toHaveLength(1);
    feeds[0]?.emit('data', {});
    expect(heard).toBe(2);
    stopFirst();
    feeds[0]?.emit('data', {});
    expect(heard).toBe(3);
    stopSecond();
    expect(feeds[0]?.unsubscribed).toBe(true);
  });

  it('fails a listen whose subscription fails before its confirmation (the runner tries again)', async () => {
    const appends = live();
    const refused = appends.listen(() => {});
    feeds[0]?.emit('error', new Error('UNAVAILABLE'));
    await expect(refused).rejects.toThrow('UNAVAILABLE');
    const again = appends.listen(() => {});
    expect(feeds).toHaveLength(2);
    feeds[1]?.emit('confirmation');
    await expect(again).resolves.toBeTypeOf('function');
  });

  it('opens a lost subscription again and then calls every listener, as appends may have been missed', async () => {
    const appends = live();
    let heard = 0;
    const listening = appends.listen(() => heard++);
    feeds[0]?.emit('confirmation');
    await listening;
    feeds[0]?.emit('error', new Error('connection reset'));
    await expect.poll(() => feeds.length).toBe(2);
    feeds[1]?.emit('error', new Error('still down'));
    await expect.poll(() => feeds.length).toBe(3);
    expect(heard).toBe(0);
    feeds[2]?.emit('confirmation');
    expect(heard).toBe(1);
    appends.close();
    expect(feeds[2]?.unsubscribed).toBe(true);
    await expect(appends.listen(() => {})).rejects.toThrow('closed');
  });
});

describe("EventStoreDB adapter: the port's subscription over the server's", () => {
  const feed = () => Object.assign(new PassThrough({ objectMode: true }), { unsubscribe: async () => {} });
  const event = (n: number) => ({ n }) as unknown as RecordedEvent;

  it('hands on what the feed delivers, skipping what the adapter drops, and ends a waiting iterator on close', async () => {
    const source = feed();
    let released = 0;
    const subscription = subscriptionOver(
      source,
      (item: { n: number }) => (item.n % 2 === 0 ? event(item.n) : undefined),
      () => released++,
    );
    const iterator = subscription[Symbol.asyncIterator]();
    source.write({ n: 1 });
    source.write({ n: 2 });
    expect(await iterator.next()).toEqual({ done: false, value: { n: 2 } });
    const waiting = iterator.next();
    await sleep(20);
    await subscription.close();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(released).toBe(1);
    expect(source.destroyed).toBe(true);
  });

  it('throws an error of the feed from the iterator', async () => {
    const source = feed();
    const subscription = subscriptionOver(
      source,
      () => event(0),
      () => {},
    );
    const next = subscription[Symbol.asyncIterator]().next();
    source.destroy(new Error('consumer too slow'));
    await expect(next).rejects.toThrow('consumer too slow');
  });

  it('lets go of a feed closed before anyone iterated it', async () => {
    const source = feed();
    let released = 0;
    await subscriptionOver(
      source,
      () => event(0),
      () => released++,
    ).close();
    expect(released).toBe(1);
  });
});

describe('EventStoreDB adapter with its server down', () => {
  it('refuses reads, appends, listeners and subscriptions with an error at once, rather than hanging', async () => {
    const port = await closedPort();
    const store = await EventStoreDbEventStore.connect({
      url: `kurrentdb://127.0.0.1:${port}?tls=false`,
      registry: contractRegistry,
    });
    try {
      await expect(store.headPosition()).rejects.toMatchObject({ type: 'unavailable' });
      await expect(store.readStream('link-1')).rejects.toMatchObject({ type: 'unavailable' });
      await expect(store.appendToStream('link-1', [anEvent()], 'any')).rejects.toThrow(/UNAVAILABLE/);
      await expect(store.onAppended(() => {})).rejects.toMatchObject({ type: 'unavailable' });
      const subscription = store.subscribeToAll();
      await expect(subscription[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        type: 'unavailable',
      });
    } finally {
      await store.close();
    }
  });
});

/** A loopback port nothing listens on (one the system just gave out and took back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
