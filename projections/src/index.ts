import type { Keyring } from '@sniplink/platform';
import { type CodesChanged, linksProjection } from './links/projection';
import type { Projection } from './projection';
import { streamCatalogue } from './stream-catalogue/projection';
import { usersProjection } from './users/projection';

export { applyNextBatch, catchUp } from './batch';
export { CheckpointMovedError, loadCheckpoint, resetProjection } from './checkpoints';
export {
  CLICKS_PROGRESS_CHANNEL,
  ClickAnalytics,
  type ClickAnalyticsDeps,
  type ClickAnalyticsStatus,
} from './click-analytics/consumer';
export {
  clickCounts,
  clicksBehind,
  countedClicks,
  hourlyBucketCount,
  linkAnalytics,
  linkClicks,
  userClickTotal,
} from './click-analytics/queries';
export { type ProjectionLag, projectionLag } from './lag';
export {
  liveDemoLinksOf,
  liveLinkByCode,
  liveLinkCount,
  liveLinksOf,
  ownedLiveLink,
  type RedirectRow,
} from './links/queries';
export type { LinkRow } from './links/tables';
export { PROJECTION_PROGRESS_CHANNEL, ProjectionProgress } from './progress';
export type { Projection } from './projection';
export { type ReadModelDatabase, withReadModels } from './read-models';
export { ProjectionBusyError, rebuildProjections } from './rebuild';
export { ProjectionRunner, type RunnerDeps, type RunnerState } from './runner';
export { streamsEndingWith } from './stream-catalogue/queries';
export { erasedUsersStillKeyed, userById } from './users/queries';
export type { UserRow } from './users/tables';
export { type CodesChanged, linksProjection, streamCatalogue, usersProjection };

/** Every read model the app keeps (click analytics is fed by the click stream, not listed here). */
export const allProjections = (deps: {
  keyring: Keyring;
  onCodesChanged?: CodesChanged;
}): readonly Projection[] => [
  streamCatalogue,
  usersProjection(deps.keyring),
  linksProjection(deps.onCodesChanged),
];
