import type { Keyring } from '@sniplink/platform';
import type { Projection } from './projection';
import { streamCatalogue } from './stream-catalogue/projection';
import { usersProjection } from './users/projection';

export { applyNextBatch, catchUp } from './batch';
export { CheckpointMovedError, loadCheckpoint, resetProjection } from './checkpoints';
export { type ProjectionLag, projectionLag } from './lag';
export { ProjectionProgress } from './progress';
export type { Projection } from './projection';
export { ProjectionBusyError, rebuildProjections } from './rebuild';
export { ProjectionRunner, type RunnerDeps, type RunnerState } from './runner';
export { streamCatalogue, usersProjection };

/** Every read model the app keeps. */
export const allProjections = (deps: { keyring: Keyring }): readonly Projection[] => [
  streamCatalogue,
  usersProjection(deps.keyring),
];
