import type { Migration } from 'kysely';
import * as eventStore from './2026-11-22T01-event-store';
import * as clickStream from './2026-11-22T02-click-stream';
import * as projections from './2026-11-22T03-projections';
import * as accounts from './2026-11-22T04-accounts';
import * as links from './2026-11-22T05-links';
import * as analytics from './2026-11-22T06-analytics';
import * as clickLabelRollup from './2026-11-22T07-click-label-rollup';
import * as clickChunks from './2026-11-22T08-click-chunks';
import * as dropClickIds from './2026-11-22T09-drop-click-ids';
import * as clickChunksAsText from './2026-11-22T10-click-chunks-as-text';
import * as clickChunksUncompressed from './2026-11-22T11-click-chunks-uncompressed';
import * as clickChunksByTime from './2026-11-22T12-click-chunks-by-time';
import * as countersHalfFull from './2026-11-22T13-counters-half-full';
import * as clickPublishFunction from './2026-11-23T01-click-publish-function';
import * as emailVerification from './2026-11-25T10-email-verification';
import * as eventSchemaVersion from './2026-11-25T20-event-schema-version';
import * as billing from './2026-11-26T01-billing';
import * as localPayments from './2026-11-26T21-local-payments';
import * as adminUsers from './2026-11-27T01-admin-users';
import * as adminStats from './2026-11-27T02-admin-stats';
import * as adminConfig from './2026-11-27T03-admin-config';
import * as announcements from './2026-11-27T04-announcements';
import * as adminAudit from './2026-11-27T05-admin-audit';
import * as premiumSlugs from './2026-11-27T06-premium-slugs';
import * as support from './2026-11-27T07-support';
import * as premiumPurchases from './2026-11-27T08-premium-purchases';
import * as premiumTargets from './2026-11-27T09-premium-targets';
import * as clickPublishesCounted from './2026-11-28T05-click-publishes-counted';
import * as paidPeriods from './2026-11-28T06-paid-periods';
import * as urgentTicketDigest from './2026-11-28T06-urgent-ticket-digest';
import * as suspendedLinkOwners from './2026-11-28T07-suspended-link-owners';
import * as premiumPayments from './2026-11-28T12-premium-payments';

/** Every migration, by name; Kysely runs them in name order. Never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T01-event-store': eventStore,
  '2026-11-22T02-click-stream': clickStream,
  '2026-11-22T03-projections': projections,
  '2026-11-22T04-accounts': accounts,
  '2026-11-22T05-links': links,
  '2026-11-22T06-analytics': analytics,
  '2026-11-22T07-click-label-rollup': clickLabelRollup,
  '2026-11-22T08-click-chunks': clickChunks,
  '2026-11-22T09-drop-click-ids': dropClickIds,
  '2026-11-22T10-click-chunks-as-text': clickChunksAsText,
  '2026-11-22T11-click-chunks-uncompressed': clickChunksUncompressed,
  '2026-11-22T12-click-chunks-by-time': clickChunksByTime,
  '2026-11-22T13-counters-half-full': countersHalfFull,
  '2026-11-23T01-click-publish-function': clickPublishFunction,
  '2026-11-25T10-email-verification': emailVerification,
  '2026-11-25T20-event-schema-version': eventSchemaVersion,
  '2026-11-26T01-billing': billing,
  '2026-11-26T21-local-payments': localPayments,
  '2026-11-27T04-announcements': announcements,
  '2026-11-27T05-admin-audit': adminAudit,
  '2026-11-27T06-premium-slugs': premiumSlugs,
  '2026-11-27T03-admin-config': adminConfig,
  '2026-11-27T01-admin-users': adminUsers,
  '2026-11-27T02-admin-stats': adminStats,
  '2026-11-27T07-support': support,
  '2026-11-27T08-premium-purchases': premiumPurchases,
  '2026-11-27T09-premium-targets': premiumTargets,
  '2026-11-28T05-click-publishes-counted': clickPublishesCounted,
  '2026-11-28T06-paid-periods': paidPeriods,
  '2026-11-28T06-urgent-ticket-digest': urgentTicketDigest,
  '2026-11-28T07-suspended-link-owners': suspendedLinkOwners,
  '2026-11-28T12-premium-payments': premiumPayments,
};
