import type { ColumnType, Selectable } from 'kysely';

/**
 * Every table the app's Postgres holds. Event store and click log tables are written only by their
 * adapters; `rm_*` tables are read models written only by projections.
 */
export interface Database {
  es_streams: EsStreamsTable;
  es_events: EsEventsTable;
  cs_partitions: CsPartitionsTable;
  cs_messages: CsMessagesTable;
  cs_group_offsets: CsGroupOffsetsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  rm_streams: RmStreamsTable;
}

type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;

export interface EsStreamsTable {
  stream_id: string;
  revision: Int8;
}

export interface EsEventsTable {
  transaction_id: ColumnType<string, never, never>;
  position: ColumnType<string, never, never>;
  event_id: string;
  stream_id: string;
  revision: Int8;
  type: string;
  data: unknown;
  metadata: unknown;
  actor_id: string | null;
  occurred_at: ColumnType<Date, Date | string, never>;
}

export interface CsPartitionsTable {
  partition: number;
  next_offset: Int8;
}

export interface CsMessagesTable {
  partition: number;
  offset: Int8;
  key: string;
  value: unknown;
  published_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface CsGroupOffsetsTable {
  group_id: string;
  partition: number;
  next_offset: Int8;
}

export interface ProjectionCheckpointsTable {
  name: string;
  version: number;
  commit_position: Int8;
  prepare_position: Int8;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface RmStreamsTable {
  stream_id: string;
  category: string;
  last_revision: Int8;
  event_count: Int8;
  last_event_type: string;
  first_event_at: Date;
  last_event_at: Date;
}

export type StreamRow = Selectable<RmStreamsTable>;
