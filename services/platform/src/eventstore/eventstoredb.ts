import type {
  AllStreamResolvedEvent,
  ReadAllOptions as ClientReadAllOptions,
  KurrentDBClient,
  ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import type { EventRegistry } from '@sniplink/contracts';
import { storableAppend } from './append-rules';
import { LiveAppends, subscriptionOver } from './eventstoredb-live';
import {
  actualRevisionOf,
  clientConnectionString,
  fromServerEvent,
  fromServerPosition,
  isStreamNotFound,
  isSystemEvent,
  isUsablePosition,
  isWrongExpectedVersion,
  positionOf,
  readPositionOf,
  streamStateOf,
  toEventData,
  typeFilterOf,
} from './eventstoredb-mapping';
import type * as port from './port';
import { comparePositions, START, WrongExpectedRevisionError } from './port';
import { toRecordedEvent } from './stored-events';

export interface EventStoreDbOptions {
  /** The server: `kurrentdb://…` (or `esdb://…`), with `?tls=false` for an insecure one. */
  url: string;
  /** The events it may hold: each is checked before it is appended and upcast when it is read. */
  registry: EventRegistry;
}

/**
 * The event store on EventStoreDB / KurrentDB (through @kurrent/kurrentdb-client), where the port's
 * semantics come from: streams, expected revisions and `$all` are the server's own, and its positions
 * (commit/prepare) are the port's `LogPosition`. The events carry what the PostgreSQL adapter keeps in
 * columns (actor, time, schema version) in their metadata, next to `$correlationId` and `$causationId`
 * (eventstoredb-mapping.ts). The server's own events ($-prefixed types and streams) are never handed out.
 *
 * A re-sent append is recognised by the server, not by an index of ids: where its expected revision
 * puts it (or, under `any`, while the server's cache of recent ids holds them), as the contract's
 * 'by-position' idempotence says (event-store.contract.ts).
 */
export class EventStoreDbEventStore implements port.EventStore {
  private readonly live: LiveAppends;
  private readonly subscriptions = new Set<port.Subscription>();

  /**
   * The client is loaded here, not when this module is: its native read bridge has no business in a
   * process on the PostgreSQL store. It connects on its first call.
   */
  static async connect(options: EventStoreDbOptions): Promise<EventStoreDbEventStore> {
    const { KurrentDBClient } = await import('@kurrent/kurrentdb-client');
    const client = KurrentDBClient.connectionString(clientConnectionString(options.url));
    return new EventStoreDbEventStore(client, options.registry);
  }

  constructor(
    private readonly client: KurrentDBClient,
    private readonly registry: EventRegistry,
  ) {
    this.live = new LiveAppends(() =>
      client.subscribeToAll({ fromPosition: 'end', filter: typeFilterOf(undefined) }),
    );
  }

  async appendToStream(
    streamId: string,
    events: port.EventToAppend[],
    expected: port.ExpectedRevision,
  ): Promise<port.AppendResult> {
    const stored = storableAppend(this.registry, streamId, events);
    let appended: Awaited<ReturnType<KurrentDBClient['appendToStream']>>;
    try {
      appended = await this.client.appendToStream(streamId, stored.map(toEventData), {
        streamState: streamStateOf(expected),
      });
    } catch (error) {
      if (!isWrongExpectedVersion(error)) throw error;
      throw new WrongExpectedRevisionError(streamId, expected, actualRevisionOf(error.actualState));
    }
    // The server answers with the log position of the append's last event, a re-sent one's too; should
    // it give none, that event is read back for it.
    const position = isUsablePosition(appended.position)
      ? fromServerPosition(appended.position)
      : await this.positionOfRevision(streamId, appended.nextExpectedRevision);
    return { nextExpectedRevision: appended.nextExpectedRevision, position };
  }

  async readStream(streamId: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const backwards = options.direction === 'backwards';
    const events: port.RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        direction: backwards ? 'backwards' : 'forwards',
        fromRevision: options.fromRevision ?? (backwards ? 'end' : 'start'),
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read) events.push(this.recorded(resolved));
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  /**
   * A page of `$all` after `after`, filtered by type on the server. The server's reads start at the
   * given position inclusive, so each page asks for one more and drops what is not after it; a page
   * the server fills is read on from where it ended (the server's own events, dropped here, can leave it
   * short of `maxCount`); a page it does not fill reached the end of the log.
   */
  async readAll(options: port.ReadAllOptions = {}): Promise<port.ReadAllResult> {
    const after = options.after ?? START;
    const maxCount = options.maxCount ?? 500;
    if (maxCount <= 0) return { events: [], next: after };
    // A filtered read passes over what does not match up to the end of the log; the head seen before it
    // began is at or below that end, so a short batch may go on from there (port.ts, ReadAllResult.next).
    const headBefore = options.types ? await this.headPosition() : START;
    const filter = typeFilterOf(options.types);
    const events: port.RecordedEvent[] = [];
    let scanned = after;
    for (;;) {
      const asked = maxCount - events.length + 1;
      const page = await this.readAllPage({ fromPosition: readPositionOf(scanned), maxCount: asked, filter });
      const from = scanned;
      for (const resolved of page) {
        const position = this.requirePosition(resolved);
        if (comparePositions(position, from) <= 0) continue;
        if (events.length === maxCount) break;
        scanned = position;
        if (resolved.event && !isSystemEvent(resolved.event)) events.push(this.recorded(resolved, position));
      }
      const last = events.at(-1)?.globalPosition;
      if (events.length === maxCount && last) return { events, next: last };
      if (page.length < asked) {
        return { events, next: comparePositions(headBefore, scanned) > 0 ? headBefore : scanned };
      }
    }
  }

  /** The server's catch-up subscription (`fromPosition`, exclusive), filtered by type on the server. */
  subscribeToAll(options: port.SubscribeOptions = {}): port.Subscription {
    let last = options.after ?? START;
    const feed = this.client.subscribeToAll({
      fromPosition: readPositionOf(last),
      filter: typeFilterOf(options.types),
    });
    const subscription = subscriptionOver(
      feed,
      (resolved) => {
        const position = this.requirePosition(resolved);
        if (comparePositions(position, last) <= 0) return undefined;
        last = position;
        return resolved.event && !isSystemEvent(resolved.event)
          ? this.recorded(resolved, position)
          : undefined;
      },
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** The last event of `$all` that is not the server's own (START when there is none). */
  async headPosition(): Promise<port.LogPosition> {
    // Backwards from the end, in pages that grow in case many of the server's own events sit there.
    for (let pageSize = 1; ; pageSize *= 100) {
      const page = await this.readAllPage({
        direction: 'backwards',
        fromPosition: 'end',
        maxCount: pageSize,
        filter: typeFilterOf(undefined),
      });
      const newest = page.find((resolved) => resolved.event && !isSystemEvent(resolved.event));
      if (newest) return this.requirePosition(newest);
      if (page.length < pageSize) return START;
    }
  }

  /** A live subscription to `$all` shared by every listener (eventstoredb-live.ts). */
  onAppended(listener: port.AppendListener): Promise<() => void> {
    return this.live.listen(listener);
  }

  /** Ends the live subscriptions and the connection. */
  async close(): Promise<void> {
    this.live.close();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  /** Reads a bounded page to its end: the client's read iterator cannot be let go of half way. */
  private async readAllPage(options: ClientReadAllOptions): Promise<AllStreamResolvedEvent[]> {
    const page: AllStreamResolvedEvent[] = [];
    for await (const resolved of this.client.readAll(options)) page.push(resolved);
    return page;
  }

  private async positionOfRevision(streamId: string, revision: bigint): Promise<port.LogPosition> {
    const [event] = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!event) throw new Error(`Stream ${streamId} has no event at revision ${revision} after appending it`);
    return event.globalPosition;
  }

  /** An event as readers get it: its data parsed and upcast to the current shape. */
  private recorded(
    resolved: ResolvedEvent | AllStreamResolvedEvent,
    position = this.requirePosition(resolved),
  ): port.RecordedEvent {
    const { event } = resolved;
    if (!event) throw new Error('EventStoreDB returned a link to an event that is gone');
    return toRecordedEvent(this.registry, fromServerEvent(event, position));
  }

  private requirePosition(resolved: ResolvedEvent | AllStreamResolvedEvent): port.LogPosition {
    const position = positionOf(resolved);
    if (position) return position;
    throw new Error(
      `EventStoreDB gave no log position for event ${resolved.event?.id ?? '?'}: ` +
        'this adapter needs EventStoreDB 22.10 or later, or KurrentDB',
    );
  }
}
