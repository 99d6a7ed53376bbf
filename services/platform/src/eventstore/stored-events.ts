import type { EventRegistry } from '@sniplink/contracts';
import type { EventToAppend, RecordedEvent } from './port';

/**
 * How every adapter turns events into what it keeps and back, through the registry: an event is checked
 * against its type's schema before anything of its append is stored, and read back in its current shape.
 * Correlation and causation ids are kept in the metadata under EventStoreDB's own keys.
 */

const CORRELATION = '$correlationId';
const CAUSATION = '$causationId';

/** An event as an adapter keeps it: the data as its schema parsed it, and the version of that schema. */
export interface StoredEvent {
  id: string;
  type: string;
  data: unknown;
  schemaVersion: number;
  metadata: Record<string, unknown>;
  actorId: string | null;
  occurredAt: Date;
}

/** Checks every event of an append (throws `InvalidEventError` for the first that does not fit). */
export function toStoredEvents(registry: EventRegistry, events: readonly EventToAppend[]): StoredEvent[] {
  return events.map((event) => {
    const { data, schemaVersion } = registry.toStored(event.type, event.data);
    const metadata = metadataWithIds(event.metadata, event.correlationId, event.causationId);
    return {
      id: event.id,
      type: event.type,
      data,
      schemaVersion,
      metadata,
      actorId: event.actorId ?? null,
      occurredAt: event.occurredAt,
    };
  });
}

/** A stored event as readers get it: parsed, upcast to its current shape, its ids out of the metadata. */
export function toRecordedEvent(
  registry: EventRegistry,
  stored: StoredEvent & Pick<RecordedEvent, 'streamId' | 'revision' | 'globalPosition'>,
): RecordedEvent {
  const { correlationId, causationId, metadata } = idsOutOfMetadata(stored.metadata);
  return {
    id: stored.id,
    type: stored.type,
    streamId: stored.streamId,
    revision: stored.revision,
    globalPosition: stored.globalPosition,
    occurredAt: stored.occurredAt,
    actorId: stored.actorId,
    correlationId,
    causationId,
    schemaVersion: stored.schemaVersion,
    data: registry.fromStored(stored.type, stored.schemaVersion, stored.data),
    metadata,
  };
}

/** The metadata as the store keeps it: with the correlation and causation ids under their keys. */
export function metadataWithIds(
  metadata: Record<string, unknown> | undefined,
  correlationId: string | null | undefined,
  causationId: string | null | undefined,
): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...metadata };
  if (correlationId != null) stored[CORRELATION] = correlationId;
  if (causationId != null) stored[CAUSATION] = causationId;
  return stored;
}

/** Kept metadata split into the correlation and causation ids and the rest. */
export function idsOutOfMetadata(stored: Record<string, unknown>): {
  correlationId: string | null;
  causationId: string | null;
  metadata: Record<string, unknown>;
} {
  const { [CORRELATION]: correlationId, [CAUSATION]: causationId, ...metadata } = stored;
  return {
    correlationId: typeof correlationId === 'string' ? correlationId : null,
    causationId: typeof causationId === 'string' ? causationId : null,
    metadata,
  };
}
