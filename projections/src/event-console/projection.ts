import type { Insertable } from 'kysely';
import type { Projection } from '../projection';
import type { RmEventCorrelationsTable } from './tables';

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters, whatever the batch size. */
const ROWS_PER_INSERT = 1_000;

/**
 * Where each event of a request or job sits, by its correlation id: the event store reads by stream and by
 * position, not by correlation, so the console's "events of the same request" look their streams and
 * revisions up here. An event's id is its row's key: a re-delivered event is inserted once.
 */
export const eventCorrelationsProjection: Projection = {
  name: 'event-correlations',
  version: 1,
  handles: 'all',
  tables: ['rm_event_correlations'],
  async apply(trx, events) {
    const rows: Insertable<RmEventCorrelationsTable>[] = [];
    for (const event of events) {
      if (!event.correlationId) continue;
      rows.push({
        event_id: event.id,
        correlation_id: event.correlationId,
        stream_id: event.streamId,
        revision: event.revision.toString(),
        log_commit: event.globalPosition.commit,
        log_prepare: event.globalPosition.prepare,
      });
    }
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await trx
        .insertInto('rm_event_correlations')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflict((oc) => oc.column('event_id').doNothing())
        .execute();
    }
  },
};
