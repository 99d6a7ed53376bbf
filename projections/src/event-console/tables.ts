import type { Int8 } from '@sniplink/platform';

/**
 * The event console's index of correlation ids: one row per event that carries one, written by
 * `eventCorrelationsProjection`, read through `./queries`. Its migration is
 * services/platform/src/db/migrations/2026-11-28T17-event-correlations.ts.
 */
export type EventConsoleTables = {
  rm_event_correlations: RmEventCorrelationsTable;
};

export interface RmEventCorrelationsTable {
  event_id: string;
  correlation_id: string;
  stream_id: string;
  revision: Int8;
  /** The event's place in the global log: the order the request's events are listed in. */
  log_commit: Int8;
  log_prepare: Int8;
}
