import type {
  AllStreamResolvedEvent,
  AppendStreamState,
  EventData,
  Position,
  ReadPosition,
  RegexFilter,
  ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import type { ExpectedRevision, LogPosition, RecordedEvent } from './port';
import type { StoredEvent } from './stored-events';

/**
 * How the EventStoreDB adapter (eventstoredb.ts) turns the port's values into the client's and back. Pure
 * functions, so that what no server on the build machine can show is at least checked without one
 * (eventstoredb.test.ts). Written against @kurrent/kurrentdb-client's types; the few constants it needs
 * are spelled here so that this module loads without the client (whose native read bridge only loads
 * when EVENT_STORE=eventstoredb).
 */

/** An event as the server keeps it: what `toEventData` wrote and the server's own fields. */
type ServerEvent = NonNullable<ResolvedEvent['event']>;

/**
 * The envelope kept in each event's metadata, next to the ids EventStoreDB's own projections read
 * (`$correlationId`, `$causationId`); the caller's metadata sits under `metadata`, so no key of it can
 * be taken for a field of the envelope.
 */
interface EnvelopeMetadata {
  actorId: string | null;
  occurredAt: string;
  schemaVersion: number;
  metadata: Record<string, unknown>;
  $correlationId?: string;
  $causationId?: string;
}

const CORRELATION = '$correlationId';
const CAUSATION = '$causationId';

/** The expected revision as the client says it: the same four cases, spelled the same way. */
export function streamStateOf(expected: ExpectedRevision): AppendStreamState {
  if (typeof expected === 'bigint' && expected < 0n) {
    throw new TypeError(`An expected revision cannot be negative: ${expected}`);
  }
  return expected;
}

/**
 * The revision a refused append found. The client says `no_stream` for a missing stream, or a revision;
 * older servers report a missing stream as -1 (and a deleted one below that): all of them `no_stream`.
 */
export function actualRevisionOf(actual: bigint | string | undefined): bigint | 'no_stream' {
  return typeof actual === 'bigint' && actual >= 0n ? actual : 'no_stream';
}

/** Whether the client's error is a refused expected revision (matched by its `type`, not its class). */
export function isWrongExpectedVersion(
  error: unknown,
): error is { type: 'wrong-expected-version'; actualState?: bigint | string } {
  return (error as { type?: unknown } | null)?.type === 'wrong-expected-version';
}

export function isStreamNotFound(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'stream-not-found';
}

/** The event as the client appends it: JSON data, the envelope in JSON metadata, the caller's id. */
export function toEventData(event: StoredEvent): EventData {
  const { [CORRELATION]: correlationId, [CAUSATION]: causationId, ...rest } = event.metadata;
  const metadata: EnvelopeMetadata = {
    actorId: event.actorId,
    occurredAt: event.occurredAt.toISOString(),
    schemaVersion: event.schemaVersion,
    metadata: rest,
    ...(typeof correlationId === 'string' && { [CORRELATION]: correlationId }),
    ...(typeof causationId === 'string' && { [CAUSATION]: causationId }),
  };
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    // The client sends JSON.stringify(data); null stands for a schema whose data is absent, as in PostgreSQL.
    data: (event.data ?? null) as Record<string, unknown>,
    metadata: metadata as unknown as Record<string, unknown>,
  };
}

/**
 * A stored event as `toRecordedEvent` (stored-events.ts) takes it, from what the server gave back. An
 * event written by something else (no envelope) reads as schema version 1 at the server's time.
 */
export function fromServerEvent(
  event: ServerEvent,
  globalPosition: LogPosition,
): StoredEvent & Pick<RecordedEvent, 'streamId' | 'revision' | 'globalPosition'> {
  const kept = isRecord(event.metadata) ? event.metadata : {};
  const metadata = isRecord(kept.metadata) ? { ...kept.metadata } : {};
  if (typeof kept[CORRELATION] === 'string') metadata[CORRELATION] = kept[CORRELATION];
  if (typeof kept[CAUSATION] === 'string') metadata[CAUSATION] = kept[CAUSATION];
  return {
    id: event.id.toLowerCase(),
    type: event.type,
    streamId: event.streamId,
    revision: event.revision,
    globalPosition,
    data: event.data,
    schemaVersion: typeof kept.schemaVersion === 'number' ? kept.schemaVersion : 1,
    metadata,
    actorId: typeof kept.actorId === 'string' ? kept.actorId : null,
    occurredAt: typeof kept.occurredAt === 'string' ? new Date(kept.occurredAt) : event.created,
  };
}

/**
 * Where an event sits in `$all`. A server of 22.10 or later gives every read event its position; an
 * append of ours commits implicitly, so its commit and prepare positions are the same and the commit
 * position of the resolved event stands for both when the event's own is missing.
 */
export function positionOf(resolved: ResolvedEvent | AllStreamResolvedEvent): LogPosition | undefined {
  const position = resolved.event?.position;
  if (position) return fromServerPosition(position);
  const commit = resolved.commitPosition;
  return commit === undefined ? undefined : { commit, prepare: commit };
}

export function fromServerPosition(position: Position): LogPosition {
  return { commit: position.commit, prepare: position.prepare };
}

/** Where a read of `$all` starts: the client's `start` for the port's START (or anything before it). */
export function readPositionOf(position: LogPosition): ReadPosition {
  if (position.commit < 0n || position.prepare < 0n) return 'start';
  return { commit: position.commit, prepare: position.prepare };
}

/** A server position an adapter can hand out: the server sends -1 (as an unsigned 64-bit) for none. */
export function isUsablePosition(position: Position | undefined): position is Position {
  return position !== undefined && position.commit >= 0n && position.commit < 2n ** 63n;
}

/**
 * The server-side filter of a read or subscription of `$all`: the given types exactly, or else every
 * event whose type is not a system one ($-prefixed: stream metadata, links, the server's own records).
 */
export function typeFilterOf(types: readonly string[] | undefined): RegexFilter {
  const regex = types
    ? `^(?:${types
        .filter((type) => !type.startsWith('$'))
        .map(escapeRegex)
        .join('|')})$`
    : '^[^$]';
  // checkpointInterval only paces a subscription's checkpoint messages, which this adapter does not ask for.
  return { filterOn: 'eventType', regex, checkpointInterval: 1_000 };
}

/** The server's own events, never handed to callers: $-prefixed types, or events in $-prefixed streams. */
export function isSystemEvent(event: Pick<ServerEvent, 'type' | 'streamId'>): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** The connection string as the client wants it: `esdb://` still works but makes the client warn. */
export function clientConnectionString(url: string): string {
  return url.replace(/^esdb(\+discover)?:\/\//, (_, discover: string | undefined) =>
    discover ? 'kurrentdb+discover://' : 'kurrentdb://',
  );
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  );
}
