/**
 * The event store port, shaped to EventStoreDB's semantics so its adapter fits without changing callers:
 * streams with 0-based revisions, appends guarded by an expected revision, a global log ($all) read from
 * an opaque position, and catch-up subscriptions that turn live.
 */

/** The state a writer expects the stream to be in. A bigint is the exact revision of its last event. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

/**
 * A place in the global log. Opaque to callers: compare with `comparePositions`, persist with
 * `encodePosition`. (Postgres adapter: writer transaction id and sequence; EventStoreDB: commit/prepare.)
 */
export interface LogPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

/** Before the first event. */
export const START: LogPosition = Object.freeze({ commit: -1n, prepare: -1n });

/**
 * Who made an event happen: the signed-in user's id (or a demo visitor's `visitor-{id}`), `operator` (a
 * command-line tool) or `system` (a sweep, a follow-up no one asked for).
 */
export type ActorId = string;

export interface EventToAppend {
  /**
   * A UUID (v7 preferred), new for every attempt. Re-sending the same ids with the same expected revision
   * is a no-op. With another one: refused by PostgreSQL, appended again by EventStoreDB when it is the
   * stream's current revision (event-store.contract.ts, `Idempotence`).
   */
  id: string;
  /** A type the store's registry declares; `data` must fit its schema or nothing is appended. */
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
  actorId?: ActorId | null;
  /** The request or job the event is part of: every event it caused shares it. */
  correlationId?: string;
  /** What the event answers: the command's id, or the event that caused it. */
  causationId?: string;
  occurredAt: Date;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  type: Type;
  streamId: string;
  revision: bigint;
  globalPosition: LogPosition;
  occurredAt: Date;
  actorId: ActorId | null;
  /** Null for events stored before these were recorded. */
  correlationId: string | null;
  causationId: string | null;
  /** The version of its shape the event was stored at; `data` has been upcast to the current one. */
  schemaVersion: number;
  data: Data;
  metadata: Record<string, unknown>;
}

export interface AppendResult {
  /** The revision of the stream's last event: pass it as the next expected revision. */
  nextExpectedRevision: bigint;
  /** The position of the last appended event. */
  position: LogPosition;
}

export interface ReadStreamOptions {
  fromRevision?: bigint;
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events after this position. Default: from the start. */
  after?: LogPosition;
  maxCount?: number;
  /** Only events of these types (the position still moves past others when a batch is short). */
  types?: readonly string[];
}

export interface ReadAllResult {
  events: RecordedEvent[];
  /**
   * Where the next read should continue from. With a type filter it may be past the last event returned,
   * so a filtered reader need not re-scan what it skipped.
   */
  next: LogPosition;
}

export interface SubscribeOptions {
  after?: LogPosition;
  types?: readonly string[];
  /** Events per read while catching up. */
  batchSize?: number;
}

/** Catch-up then live. Ends only when closed (or on an error, thrown from the iterator). */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export type AppendListener = () => void;

export interface EventStore {
  appendToStream(
    streamId: string,
    events: EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult>;
  /** The stream's events; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<ReadAllResult>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** The position of the last event readers can see (START when empty). */
  headPosition(): Promise<LogPosition>;
  /**
   * Calls `listener` after appends (in any process sharing the store): a hint to read again, not a
   * delivery; it may come late, once for several appends, or with nothing new (after a lost connection).
   * Resolves, with the way to stop listening, once appends made from then on will be heard.
   */
  onAppended(listener: AppendListener): Promise<() => void>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(
      `Append to stream ${streamId} expected revision ${String(expected)} but it is at ${String(actual)}`,
    );
    this.name = 'WrongExpectedRevisionError';
  }
}

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function encodePosition(position: LogPosition): string {
  return `${position.commit}/${position.prepare}`;
}

export function decodePosition(encoded: string): LogPosition {
  const match = /^(-?\d+)\/(-?\d+)$/.exec(encoded);
  if (!match?.[1] || !match[2]) throw new Error('Malformed log position');
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}
