import type { Database, RecordedEvent } from '@sniplink/platform';
import { type Projection, type ReadModelDatabase, withReadModels } from '@sniplink/projections';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database';
import { type GivenEvent, recorded } from './events';

export interface ProjectionSpec {
  /** The test file's database (migrated, its own), for the projection's queries. */
  readonly db: Kysely<Database>;
  /** The same database typed by the read-model tables, for a query of rows no query function reads. */
  readonly readModels: Kysely<ReadModelDatabase>;
  /**
   * Empties the projections' tables and applies `given` (see `onStream`), in log order: once in one batch,
   * then again with every event delivered twice. Fails the test when the redelivery changed any row.
   * Resolves with the events as recorded.
   */
  given(...given: Array<GivenEvent | readonly GivenEvent[]>): Promise<RecordedEvent[]>;
  /** Applies already recorded events once more, in one batch (e.g. after changing what the projection reads). */
  apply(events: readonly RecordedEvent[]): Promise<void>;
}

/**
 * A projection (or several that share a transaction, as a runner applies them) under test on a database
 * of the test file's own, made before its tests and dropped after them. `projection` may be a function,
 * called at each `given`, for one that needs what exists only once the database does (a keyring).
 */
export function projectionSpec(
  projection: Projection | readonly Projection[] | (() => Projection | readonly Projection[]),
): ProjectionSpec {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());
  const db = () => {
    if (!database) throw new Error('projectionSpec: its database exists only inside the tests');
    return database.db;
  };
  const projections = () => {
    const resolved = typeof projection === 'function' ? projection() : projection;
    return Array.isArray(resolved) ? (resolved as readonly Projection[]) : [resolved as Projection];
  };
  const applyBatch = (batch: readonly RecordedEvent[]) =>
    db()
      .transaction()
      .execute(async (trx) => {
        for (const each of projections()) {
          const handled = batch.filter(
            (event) => each.handles === 'all' || each.handles.includes(event.type),
          );
          await each.apply(withReadModels(trx), handled);
        }
      });
  const tables = () => [...new Set(projections().flatMap((each) => each.tables))];
  const empty = () => sql`TRUNCATE ${sql.join(tables().map((table) => sql.table(table)))}`.execute(db());
  const rows = async () => {
    const all: Record<string, unknown> = {};
    for (const table of tables()) {
      const { rows } =
        await sql`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.table(table)}::text`.execute(db());
      all[table] = JSON.parse(JSON.stringify(rows));
    }
    return all;
  };

  return {
    get db() {
      return db();
    },
    get readModels() {
      return withReadModels(db());
    },
    async given(...given) {
      const events = recorded(given.flat());
      await empty();
      await applyBatch(events);
      const once = await rows();
      await empty();
      for (const event of events) {
        await applyBatch([event]);
        await applyBatch([event]);
      }
      expect(await rows(), 'every event delivered twice, one at a time').toEqual(once);
      await applyBatch(events);
      expect(await rows(), 'all events delivered again').toEqual(once);
      return events;
    },
    apply: (events) => applyBatch(events),
  };
}
