import { comparePositions, type Database, type EventStore, type LogPosition } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { advanceCheckpoint } from './checkpoints';
import { type Projection, typesOf } from './projection';
import { withReadModels } from './read-models';

export interface BatchDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
}

export interface BatchOutcome {
  checkpoint: LogPosition;
  applied: number;
}

/**
 * Reads the next batch after the checkpoint and applies it in one transaction together with the
 * checkpoint's compare-and-set: a crash at any point leaves both as they were, or both moved.
 */
export async function applyNextBatch(
  deps: BatchDeps,
  projection: Projection,
  checkpoint: LogPosition,
  batchSize: number,
): Promise<BatchOutcome> {
  const { events, next } = await deps.eventStore.readAll({
    after: checkpoint,
    maxCount: batchSize,
    types: typesOf(projection),
  });
  if (comparePositions(next, checkpoint) <= 0) return { checkpoint, applied: 0 };
  await deps.db.transaction().execute(async (trx) => {
    await advanceCheckpoint(trx, projection, checkpoint, next);
    if (events.length > 0) await projection.apply(withReadModels(trx), events);
  });
  if (events.length > 0) await projection.afterCommit?.(events);
  return { checkpoint: next, applied: events.length };
}

/** Applies batches until the projection has read everything visible now. */
export async function catchUp(
  deps: BatchDeps,
  projection: Projection,
  from: LogPosition,
  batchSize: number,
  onBatch: (applied: number) => void = () => {},
): Promise<BatchOutcome> {
  let checkpoint = from;
  let applied = 0;
  for (;;) {
    const step = await applyNextBatch(deps, projection, checkpoint, batchSize);
    if (comparePositions(step.checkpoint, checkpoint) === 0) return { checkpoint, applied };
    checkpoint = step.checkpoint;
    applied += step.applied;
    onBatch(step.applied);
  }
}
