import type { ReadModel, RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import type { ReadModelDatabase, ReadModelTables } from './read-models';

/**
 * A read model fed from the global log. The runner owns the transaction and the checkpoint; `apply` only
 * writes its own tables, and must give the same rows when an event is delivered twice.
 */
export interface Projection extends ReadModel {
  /** Stable name: the checkpoint's key. */
  readonly name: string;
  /** Bump to rebuild the read model from the start on the next run (a changed shape or meaning). */
  version: number;
  /** Event types it reads, or 'all'. */
  handles: readonly string[] | 'all';
  /** The read-model tables it owns, emptied before a rebuild. */
  tables: readonly (keyof ReadModelTables & string)[];
  apply(trx: Transaction<ReadModelDatabase>, events: RecordedEvent[]): Promise<void>;
  /**
   * Runs after a batch's transaction committed, before waiters hear of it: e.g. the links projection
   * evicts changed codes from redirect caches here, so a read-your-writes answer finds them fresh.
   */
  afterCommit?(events: RecordedEvent[]): Promise<void>;
}

export const typesOf = (projection: Projection): readonly string[] | undefined =>
  projection.handles === 'all' ? undefined : projection.handles;

/** An `apply` that applies the batch's events one at a time, in the log's order. */
export const eachInOrder =
  (
    applyEvent: (trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) => Promise<void>,
  ): Projection['apply'] =>
  async (trx, events) => {
    for (const event of events) await applyEvent(trx, event);
  };
