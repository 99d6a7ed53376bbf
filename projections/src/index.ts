import type { Keyring } from '@sniplink/platform';
import { usersProjection, usersReadModel } from './accounts/projection';
import { announcementsProjection } from './admin/announcements/projection';
import { adminAuditProjection } from './admin/audit/projection';
import { configProjection } from './admin/config/projection';
import { adminStatsProjection } from './admin/stats/projection';
import { paidPlansProjection } from './billing/paid-plans-projection';
import { billingProjection } from './billing/projection';
import { type CodesChanged, linksProjection, linksReadModel } from './links/projection';
import { marketplaceProjection, marketplaceProjectionFor } from './marketplace/projection';
import type { Projection } from './projection';
import { streamCatalogue } from './stream-catalogue/projection';
import { supportProjection, supportReadModel } from './support/projection';

export {
  erasedUsersStillKeyed,
  isAdminUser,
  type ListedUser,
  listedUser,
  searchUsers,
  userById,
  usersMatching,
} from './accounts/queries';
export type { UserRow } from './accounts/tables';
export {
  allAnnouncements,
  announcementById,
  announcementsShownTo,
} from './admin/announcements/queries';
export { type AuditFilter, type AuditRecord, auditHistory } from './admin/audit/queries';
export { type ConfigEntryRow, configEntries, configEntry } from './admin/config/queries';
export {
  type AdminDetailedStats,
  type AdminStatsSummary,
  adminDetailedStats,
  adminStatsSummary,
  adminTrends,
  type StatsInstant,
} from './admin/stats/queries';
export {
  CLICKS_PROGRESS_CHANNEL,
  ClickAnalytics,
  type ClickAnalyticsDeps,
  type ClickAnalyticsStatus,
} from './analytics/consumer';
export {
  type ClicksWindow,
  clickCounts,
  clicksBehind,
  clicksCounted,
  countedClicks,
  dailyClicksOf,
  hourlyBucketCount,
  linkAnalytics,
  linkClicks,
  linkClicksIn,
  linkClickTotals,
  userClickTotal,
  type WindowClicks,
} from './analytics/queries';
export { COUNTERS_FILLED_BY_MIGRATION } from './analytics/tables';
export { applyNextBatch, catchUp } from './batch';
export {
  type BilledSubscription,
  billingOfUser,
  proAt,
  type RevenueOverview,
  recordedOwnerOfCustomer,
  recordedOwnerOfSubscription,
  revenueOverview,
  type UserBilling,
} from './billing/queries';
export {
  type RebuildOutcome,
  type RebuildProgress,
  RebuildRunningError,
  rebuildBlueGreen,
} from './blue-green';
export { CheckpointMovedError, loadCheckpoint, resetProjection } from './checkpoints';
export { type ProjectionLag, projectionLag } from './lag';
export {
  isSuspendedOwner,
  liveDemoLinksOf,
  liveLinkByCode,
  liveLinkCount,
  liveLinksOf,
  ownedLiveLink,
  type RedirectRow,
  tagCountsOf,
} from './links/queries';
export type { LinkRow } from './links/tables';
export {
  adminPremiumSlugs,
  availablePremiumSlugs,
  ownedPremiumSlugs,
  type PremiumSlugFilter,
  premiumPurchaseOf,
  premiumSlugByCode,
  premiumSlugById,
  premiumSlugForCheckout,
  premiumSlugStats,
} from './marketplace/queries';
export {
  type ProjectionHealth,
  ProjectionRebuilds,
  type ProjectionState,
  projectionHealth,
  UnknownProjectionError,
} from './operations';
export { PROJECTION_PROGRESS_CHANNEL, ProjectionProgress } from './progress';
export type { Projection } from './projection';
export { type ReadModelDatabase, withReadModels } from './read-models';
export { ProjectionBusyError, rebuildProjections } from './rebuild';
export { ProjectionRunner, type RunnerDeps, type RunnerState } from './runner';
export { streamsEndingWith } from './stream-catalogue/queries';
export {
  adminEmails,
  supportTicket,
  supportTicketsPage,
  type TicketFilter,
  ticketCounts,
  ticketMessages,
  ticketsDueToClose,
  ticketsOf,
} from './support/queries';
export {
  adminAuditProjection,
  adminStatsProjection,
  announcementsProjection,
  billingProjection,
  type CodesChanged,
  configProjection,
  linksProjection,
  linksReadModel,
  marketplaceProjection,
  paidPlansProjection,
  streamCatalogue,
  supportProjection,
  supportReadModel,
  usersProjection,
  usersReadModel,
};

/** Every read model the app keeps (click analytics is fed by the click stream, not listed here). */
export const allProjections = (deps: {
  keyring: Keyring;
  onCodesChanged?: CodesChanged;
}): readonly Projection[] => [
  streamCatalogue,
  usersProjection(deps.keyring),
  linksProjection(deps.onCodesChanged),
  billingProjection,
  paidPlansProjection,
  adminAuditProjection,
  configProjection,
  announcementsProjection,
  adminStatsProjection,
  marketplaceProjectionFor(deps.onCodesChanged),
  supportProjection(deps.keyring),
];
