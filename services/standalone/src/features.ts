import {
  accountsFeature,
  analyticsFeature,
  announcementsFeature,
  auditFeature,
  billingFeature,
  configFeature,
  demoFeature,
  type Feature,
  linksFeature,
  marketplaceFeature,
  migrationsOf,
  statsFeature,
  supportFeature,
  usersFeature,
} from '@sniplink/api';
import { platformMigrations } from '@sniplink/platform';

/**
 * Every feature of the API, in the order they are built (one that uses another's services comes after
 * it) and their routes registered. A new feature is its own folder under services/api/src/ with a
 * `feature.ts`, and one line here.
 */
export const features: readonly Feature[] = [
  accountsFeature,
  linksFeature,
  analyticsFeature,
  demoFeature,
  billingFeature,
  announcementsFeature,
  marketplaceFeature,
  supportFeature,
  statsFeature,
  usersFeature,
  auditFeature,
  configFeature,
];

/** Every migration: the platform's and each feature's, by name (Kysely runs them in name order). */
export const migrations = migrationsOf(platformMigrations, features);
