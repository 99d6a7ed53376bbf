import type { Clock, Database, EventStore, IdSource, ReadModelWaiter } from '@sniplink/platform';
import type { Kysely } from 'kysely';

/** What an event-sourced service runs on: its streams, the read models it answers from, its time and its ids. */
export interface ServiceDeps {
  eventStore: EventStore;
  db: Kysely<Database>;
  /** Waits for the read models a command's answer is read from. */
  readModels: ReadModelWaiter;
  /** Stamps the events appended, and is the service's now for whatever else it dates (a month's link count, a hold). */
  clock: Clock;
  /** The ids of the aggregates the service creates. */
  ids: IdSource;
}
