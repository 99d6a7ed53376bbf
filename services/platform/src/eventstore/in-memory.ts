import type { EventRegistry } from '@sniplink/contracts';
import { Wakeup } from '../db/notifications';
import { answerToRetry, storableAppend } from './append-rules';
import { catchUpSubscription } from './catch-up';
import type * as port from './port';
import { comparePositions, START, WrongExpectedRevisionError } from './port';
import { type StoredEvent, toRecordedEvent } from './stored-events';

/** A live subscription only sleeps until an append wakes it; Wakeup wants a bound, so a long one. */
const LIVE_SLEEP_MS = 60_000;

/**
 * The event store in this process's memory, for tests of the logic above the port: the same semantics as
 * the PostgreSQL adapter (the same contract suite runs against both), no server. An append is checked and
 * stored within one turn of the event loop, so appends never interleave and the log is in commit order.
 * Events are kept as their JSON, as a database would keep them: nothing a caller does to an object it
 * appended or read changes what is stored.
 */
export class InMemoryEventStore implements port.EventStore {
  private readonly log: KeptEvent[] = [];
  private readonly streams = new Map<string, KeptEvent[]>();
  private readonly byId = new Map<string, KeptEvent>();
  /** Open subscriptions, each with the wake-up an append sends it (and that ends it when the store closes). */
  private readonly live = new Map<port.Subscription, Wakeup>();
  private readonly appendListeners = new Set<port.AppendListener>();
  private appends = 0n;

  /** `registry`: the events it may hold, checked before they are appended and upcast when read. */
  constructor(private readonly registry: EventRegistry) {}

  async appendToStream(
    streamId: string,
    events: port.EventToAppend[],
    expected: port.ExpectedRevision,
  ): Promise<port.AppendResult> {
    const stored = storableAppend(this.registry, streamId, events).map(storedForm);
    const current = this.currentRevision(streamId);
    const idTaken = stored.some((event) => this.byId.has(event.id));
    if (!meetsExpectation(expected, current) || idTaken)
      return this.retriedOrConflict(streamId, stored, expected);
    const commit = this.appends++;
    const first = current === 'no_stream' ? 0n : current + 1n;
    const recorded = stored.map((event, i) => ({
      ...event,
      streamId,
      revision: first + BigInt(i),
      globalPosition: Object.freeze({ commit, prepare: BigInt(this.log.length + i) }),
    }));
    this.keep(streamId, recorded);
    for (const wakeup of this.live.values()) wakeup.wake();
    for (const listener of this.appendListeners) listener();
    const last = recorded[recorded.length - 1] as KeptEvent;
    return { nextExpectedRevision: last.revision, position: last.globalPosition };
  }

  async readStream(streamId: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    const stream = this.streams.get(streamId) ?? [];
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? BigInt(Number.MAX_SAFE_INTEGER) : 0n);
    const picked = backwards
      ? stream.filter((event) => event.revision <= from).reverse()
      : stream.filter((event) => event.revision >= from);
    return picked.slice(0, options.maxCount).map(this.read);
  }

  async readAll(options: port.ReadAllOptions = {}): Promise<port.ReadAllResult> {
    const after = options.after ?? START;
    const maxCount = options.maxCount ?? 500;
    const types = options.types && new Set(options.types);
    const events: port.RecordedEvent[] = [];
    for (let i = this.indexAfter(after); i < this.log.length && events.length < maxCount; i++) {
      const event = this.log[i] as KeptEvent;
      if (!types || types.has(event.type)) events.push(this.read(event));
    }
    const last = events.at(-1)?.globalPosition;
    if (events.length === maxCount && last) return { events, next: last };
    // A short batch read everything there is: continue from the head (or stay put if the log is empty).
    return { events, next: this.log.at(-1)?.globalPosition ?? after };
  }

  subscribeToAll(options: port.SubscribeOptions = {}): port.Subscription {
    const wakeup = new Wakeup();
    const subscription = catchUpSubscription((batch) => this.readAll(batch), options, {
      idle: () => wakeup.sleep(LIVE_SLEEP_MS),
      wake: wakeup.wake,
      ended: () => {
        this.live.delete(subscription);
      },
    });
    this.live.set(subscription, wakeup);
    return subscription;
  }

  async headPosition(): Promise<port.LogPosition> {
    return this.log.at(-1)?.globalPosition ?? START;
  }

  /** Called within the append, once it is stored: this store has no other process to hear from. */
  async onAppended(listener: port.AppendListener): Promise<() => void> {
    const own = () => listener(); // the same function twice is two listeners, as with the other adapter
    this.appendListeners.add(own);
    return () => this.appendListeners.delete(own);
  }

  /** Ends the live subscriptions (their iterators finish), as a store whose owner shuts it down. */
  async close(): Promise<void> {
    await Promise.all([...this.live.keys()].map((subscription) => subscription.close()));
  }

  /** A reader gets its own copy, as every read from a database does, in the event's current shape. */
  private readonly read = (event: KeptEvent): port.RecordedEvent =>
    toRecordedEvent(this.registry, {
      ...event,
      data: structuredClone(event.data),
      metadata: structuredClone(event.metadata),
    });

  private keep(streamId: string, recorded: KeptEvent[]): void {
    const stream = this.streams.get(streamId) ?? [];
    stream.push(...recorded);
    this.streams.set(streamId, stream);
    this.log.push(...recorded);
    for (const event of recorded) this.byId.set(event.id, event);
  }

  /** Answers a re-sent append as the first time; anything else that did not go through is a conflict. */
  private retriedOrConflict(
    streamId: string,
    stored: StoredEvent[],
    expected: port.ExpectedRevision,
  ): port.AppendResult {
    const retried = answerToRetry(
      streamId,
      expected,
      stored.map((event) => this.byId.get(event.id)),
    );
    if (retried) return retried;
    throw new WrongExpectedRevisionError(streamId, expected, this.currentRevision(streamId));
  }

  private currentRevision(streamId: string): bigint | 'no_stream' {
    return this.streams.get(streamId)?.at(-1)?.revision ?? 'no_stream';
  }

  /** The index of the first event after `position` (the log is sorted by position). */
  private indexAfter(position: port.LogPosition): number {
    let low = 0;
    let high = this.log.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const event = this.log[middle] as KeptEvent;
      if (comparePositions(event.globalPosition, position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** An event as this store keeps it: as stored, and where. */
type KeptEvent = StoredEvent & Pick<port.RecordedEvent, 'streamId' | 'revision' | 'globalPosition'>;

function meetsExpectation(expected: port.ExpectedRevision, current: bigint | 'no_stream'): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === 'no_stream';
  if (expected === 'stream_exists') return current !== 'no_stream';
  return current === expected;
}

/**
 * What a database would keep of an event: its data and metadata as JSON (which also refuses what JSON
 * cannot hold, such as a bigint), the time to the millisecond, the id as PostgreSQL prints a uuid.
 */
function storedForm(event: StoredEvent): StoredEvent {
  return {
    ...event,
    id: event.id.toLowerCase(),
    data: asJson(event.data ?? null),
    metadata: asJson(event.metadata) as Record<string, unknown>,
    occurredAt: new Date(event.occurredAt.toISOString()),
  };
}

function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? 'null');
}
