import type { Database } from '@sniplink/platform';
import type { Kysely, Transaction } from 'kysely';
import type { UsersTables } from './accounts/tables';
import type { AnnouncementsTables } from './admin/announcements/tables';
import type { AdminAuditTables } from './admin/audit/tables';
import type { AdminConfigTables } from './admin/config/tables';
import type { AdminStatsTables } from './admin/stats/tables';
import type { AdminDocsTables } from './admin-docs/tables';
import type { ClickAnalyticsTables } from './analytics/tables';
import type { BillingTables } from './billing/tables';
import type { PageCopyTables } from './content/tables';
import type { EventConsoleTables } from './event-console/tables';
import type { LinksTables } from './links/tables';
import type { MarketplaceTables } from './marketplace/tables';
import type { ModerationTables } from './moderation/tables';
import type { SeoTables } from './seo/tables';
import type { StreamCatalogueTables } from './stream-catalogue/tables';
import type { SupportTables } from './support/tables';
import type { WebhookReadModelTables } from './webhooks/tables';

/**
 * Every read model's tables; each is declared in its own folder, beside its projection and queries.
 * (Type aliases, not interfaces: Kysely's `withTables` wants a record type.)
 */
export type ReadModelTables = LinksTables &
  UsersTables &
  StreamCatalogueTables &
  ClickAnalyticsTables &
  BillingTables &
  AdminAuditTables &
  AdminConfigTables &
  AdminDocsTables &
  AnnouncementsTables &
  AdminStatsTables &
  MarketplaceTables &
  ModerationTables &
  SeoTables &
  SupportTables &
  PageCopyTables &
  EventConsoleTables &
  WebhookReadModelTables;

/** The platform's tables and the read models': what projections and their queries are typed against. */
export interface ReadModelDatabase extends Database, ReadModelTables {}

const widened = new WeakMap<Kysely<Database>, Kysely<ReadModelDatabase>>();

/**
 * The same handle (same pool, or same transaction) typed with the read models' tables too. Kysely's
 * `withTables` changes types only; the copy is kept per handle, so a query pays one WeakMap look-up.
 */
export function withReadModels(db: Transaction<Database>): Transaction<ReadModelDatabase>;
export function withReadModels(db: Kysely<Database>): Kysely<ReadModelDatabase>;
export function withReadModels(db: Kysely<Database>): Kysely<ReadModelDatabase> {
  let typed = widened.get(db);
  if (!typed) {
    typed = db.withTables<ReadModelTables>();
    widened.set(db, typed);
  }
  return typed;
}
