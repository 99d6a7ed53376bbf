import type { RecordedEvent } from '@sniplink/platform';
import { sql } from 'kysely';
import type { Projection } from '../projection';

/** The part of a stream id before the first '-': `user-42` -> `user`. */
export const categoryOf = (streamId: string): string => streamId.split('-', 1)[0] ?? streamId;

/**
 * A catalogue of every stream: its category, last revision, event count and times. Operators use it to
 * find aggregates (and the admin console's audit history will start from it).
 * Idempotent: a row only moves forward to a higher revision, so a re-delivered event changes nothing.
 */
export const streamCatalogue: Projection = {
  name: 'stream-catalogue',
  version: 1,
  handles: 'all',
  tables: ['rm_streams'],
  async apply(trx, events) {
    const rows = [...latestPerStream(events).values()].map(({ first, last }) => ({
      stream_id: last.streamId,
      category: categoryOf(last.streamId),
      last_revision: last.revision.toString(),
      event_count: (last.revision + 1n).toString(),
      last_event_type: last.type,
      first_event_at: first.occurredAt,
      last_event_at: last.occurredAt,
    }));
    if (rows.length === 0) return;
    await trx
      .insertInto('rm_streams')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('stream_id')
          .doUpdateSet({
            last_revision: (eb) => eb.ref('excluded.last_revision'),
            event_count: (eb) => eb.ref('excluded.event_count'),
            last_event_type: (eb) => eb.ref('excluded.last_event_type'),
            last_event_at: (eb) => eb.ref('excluded.last_event_at'),
          })
          .where(sql<boolean>`rm_streams.last_revision < excluded.last_revision`),
      )
      .execute();
  },
};

/** Per stream in the batch: its earliest and latest event (one upsert per stream, not per event). */
function latestPerStream(events: RecordedEvent[]) {
  const streams = new Map<string, { first: RecordedEvent; last: RecordedEvent }>();
  for (const event of events) {
    const seen = streams.get(event.streamId);
    if (!seen) streams.set(event.streamId, { first: event, last: event });
    else if (event.revision > seen.last.revision) seen.last = event;
    else if (event.revision < seen.first.revision) seen.first = event;
  }
  return streams;
}
