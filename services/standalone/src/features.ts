import { type Feature, migrationsOf } from '@sniplink/api';
import { accountsFeature } from '@sniplink/api/accounts/feature';
import {
  announcementsFeature,
  auditFeature,
  configFeature,
  statsFeature,
  usersFeature,
} from '@sniplink/api/admin/features';
import { adminDocsFeature } from '@sniplink/api/admin-docs/feature';
import { analyticsFeature } from '@sniplink/api/analytics/feature';
import { apiKeysFeature } from '@sniplink/api/api-keys/feature';
import { billingFeature } from '@sniplink/api/billing/feature';
import { contentFeature } from '@sniplink/api/content/feature';
import { demoFeature } from '@sniplink/api/demo/feature';
import { eventConsoleFeature } from '@sniplink/api/event-console/feature';
import { exportsFeature } from '@sniplink/api/exports/feature';
import { importsFeature } from '@sniplink/api/imports/feature';
import { linksFeature } from '@sniplink/api/links/feature';
import { marketplaceFeature } from '@sniplink/api/marketplace/feature';
import { moderationFeature } from '@sniplink/api/moderation/feature';
import { projectionsAdminFeature } from '@sniplink/api/projections-admin/feature';
import { seoFeature } from '@sniplink/api/seo/feature';
import { supportFeature } from '@sniplink/api/support/feature';
import { webhooksFeature } from '@sniplink/api/webhooks/feature';
import { EventRegistry, sharedEventGroups } from '@sniplink/contracts';
import { type Keyring, platformMigrations } from '@sniplink/platform';
import { allProjections, type CodesChanged, type Projection } from '@sniplink/projections';

/**
 * Every feature of the API, in the order they are built (one that uses another's services comes after
 * it) and their routes registered. A new feature is its own folder under services/api/src/ with a
 * `feature.ts`, and one line here.
 */
export const features: readonly Feature[] = [
  accountsFeature,
  linksFeature,
  analyticsFeature,
  apiKeysFeature,
  demoFeature,
  billingFeature,
  announcementsFeature,
  marketplaceFeature,
  supportFeature,
  exportsFeature,
  statsFeature,
  usersFeature,
  auditFeature,
  configFeature,
  moderationFeature,
  contentFeature,
  seoFeature,
  adminDocsFeature,
  eventConsoleFeature,
  importsFeature,
  projectionsAdminFeature,
  webhooksFeature,
];

/** Every migration: the platform's and each feature's, by name (Kysely runs them in name order). */
export const migrations = migrationsOf(platformMigrations, features);

/** Every event the store holds: the shared features' and each feature's own (a type declared twice throws). */
export const eventRegistry = new EventRegistry([
  ...sharedEventGroups,
  ...features.flatMap((feature) => feature.events ?? []),
]);

/** Every read model the app keeps: the shared ones and each feature's own. */
export const appProjections = (deps: {
  keyring: Keyring;
  onCodesChanged?: CodesChanged;
}): readonly Projection[] => [
  ...allProjections(deps),
  ...features.flatMap((feature) => feature.projections?.({ keyring: deps.keyring }) ?? []),
];
