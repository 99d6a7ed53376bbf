import type { Int8 } from '@sniplink/platform';

/**
 * The stream catalogue's table: one row per stream, written by `streamCatalogue`, read through
 * `./queries`. Its migration stays in services/platform/src/db/migrations/ (`…T03-projections`), whose
 * order is history.
 */
export type StreamCatalogueTables = {
  rm_streams: RmStreamsTable;
};

export interface RmStreamsTable {
  stream_id: string;
  category: string;
  last_revision: Int8;
  event_count: Int8;
  last_event_type: string;
  first_event_at: Date;
  last_event_at: Date;
}
