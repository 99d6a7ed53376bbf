export {
  ClickBuffer,
  type ClickBufferOptions,
  type ClickBufferStats,
  type ClickPublisher,
} from './click-buffer';
export { type ClickInput, describeClick } from './click-description';
export { ClickSpill, type ClickSpillOptions, type ClickSpillStats } from './click-spill';
export { clientAddress, type TrustedHop, trustedHop } from './client-address';
export {
  type ConnectionRedirectDeps,
  type FastPathOptions,
  missingNodeInternals,
  type NodeInternalsProbe,
  offerRedirectsOnConnections,
  type RedirectFastPath,
} from './connection-redirect';
export { LinkCache, type LinkCacheOptions, type RedirectTarget } from './link-cache';
export { CODE_CHANGES_CHANNEL, followCodeChanges, publishCodeChanges } from './link-changes';
export {
  type ControlPages,
  hasClickLeftIn,
  type LinkControlsDeps,
  type PasswordGuesses,
  takeClickFrom,
} from './link-controls';
export { redirectsServed } from './redirect-count';
export { clickId, createFastRedirect, type RedirectDeps, registerRedirect } from './redirect-route';
export { SpillFiles, type SpillFilesOptions } from './spill-files';
