import type { Projection } from './projection';
import { streamCatalogue } from './stream-catalogue/projection';

export { applyNextBatch, catchUp } from './batch';
export { CheckpointMovedError, loadCheckpoint, resetProjection } from './checkpoints';
export { type ProjectionLag, projectionLag } from './lag';
export type { Projection } from './projection';
export { ProjectionBusyError, rebuildProjections } from './rebuild';
export { ProjectionRunner, type RunnerDeps, type RunnerState } from './runner';
export { streamCatalogue };

/** Every read model the app keeps. */
export const allProjections: readonly Projection[] = [streamCatalogue];
