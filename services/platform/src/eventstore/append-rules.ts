import type { EventRegistry } from '@sniplink/contracts';
import type { AppendResult, EventToAppend, ExpectedRevision, RecordedEvent } from './port';
import { type StoredEvent, toStoredEvents } from './stored-events';

/**
 * The rules of an append that do not depend on where events are kept. Every adapter applies them, so
 * a bad append and a re-sent one get the same answer from each.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The events of an append as a store keeps them, once the append and each of its events are checked: an
 * append no store could keep, or an event its type's schema refuses, throws before anything is stored.
 */
export function storableAppend(
  registry: EventRegistry,
  streamId: string,
  events: EventToAppend[],
): StoredEvent[] {
  assertAppendable(streamId, events);
  return toStoredEvents(registry, events);
}

/** Refuses an append no store could keep: no stream id, no events, an event without a UUID or a type. */
function assertAppendable(streamId: string, events: EventToAppend[]): void {
  if (!streamId) throw new TypeError('A stream id is required');
  if (events.length === 0) throw new TypeError('An append needs at least one event');
  for (const event of events) {
    if (!UUID.test(event.id)) throw new TypeError(`Event id is not a UUID: ${event.id}`);
    if (!event.type) throw new TypeError('An event needs a type');
  }
  if (new Set(events.map((event) => event.id.toLowerCase())).size !== events.length) {
    throw new TypeError('Event ids in one append must differ');
  }
}

/**
 * An append that did not go through is a retry of one that did when these very events (`stored`, in the
 * append's order, undefined where an id is not stored) sit in this stream, consecutively, where this
 * append would have put them. Then it answers as the first one did; otherwise undefined (a conflict).
 */
export function answerToRetry(
  streamId: string,
  expected: ExpectedRevision,
  stored: readonly (Pick<RecordedEvent, 'streamId' | 'revision' | 'globalPosition'> | undefined)[],
): AppendResult | undefined {
  const first = stored[0];
  const last = stored.at(-1);
  if (!first || !last) return undefined;
  const consecutive = stored.every(
    (event, i) => event?.streamId === streamId && event.revision === first.revision + BigInt(i),
  );
  const whereExpected =
    expected === 'no_stream'
      ? first.revision === 0n
      : typeof expected === 'bigint'
        ? first.revision === expected + 1n
        : true;
  if (!consecutive || !whereExpected) return undefined;
  return { nextExpectedRevision: last.revision, position: last.globalPosition };
}
