import type { Database, EventStore, ExclusiveLocks, Logger } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { catchUp } from './batch';
import { resetProjection } from './checkpoints';
import type { Projection } from './projection';

export class ProjectionBusyError extends Error {
  constructor(readonly projection: string) {
    super(`Projection ${projection} is being run by another process; stop it before rebuilding.`);
    this.name = 'ProjectionBusyError';
  }
}

export interface RebuildDeps {
  db: Kysely<Database>;
  /** The runners' locks: a rebuild holds each projection's while it rebuilds it. */
  locks: ExclusiveLocks;
  eventStore: EventStore;
  log: Logger;
}

/**
 * Rebuilds read models from the start of the log: takes each projection's lock (so no runner writes
 * meanwhile), empties its tables, resets its checkpoint and applies every event again.
 */
export async function rebuildProjections(
  deps: RebuildDeps,
  projections: readonly Projection[],
  options: {
    batchSize?: number;
    /** Called as each projection applies a batch, and once it is done. */
    onProgress?: (progress: { projection: string; events: number; done: boolean }) => void;
  } = {},
): Promise<{ name: string; events: number; ms: number }[]> {
  const results = [];
  for (const projection of projections) {
    const started = performance.now();
    const events = await withProjectionLock(deps.locks, projection, async () => {
      await deps.db.transaction().execute((trx) => resetProjection(trx, projection));
      const { applied } = await catchUp(
        deps,
        projection,
        { commit: -1n, prepare: -1n },
        options.batchSize ?? 1_000,
        (applied) => options.onProgress?.({ projection: projection.name, events: applied, done: false }),
      );
      options.onProgress?.({ projection: projection.name, events: 0, done: true });
      return applied;
    });
    const ms = Math.round(performance.now() - started);
    deps.log.info({ projection: projection.name, events, ms }, 'projection rebuilt');
    results.push({ name: projection.name, events, ms });
  }
  return results;
}

async function withProjectionLock<T>(
  locks: ExclusiveLocks,
  projection: Projection,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await locks.tryAcquire(`projection:${projection.name}`);
  if (!lock) throw new ProjectionBusyError(projection.name);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
