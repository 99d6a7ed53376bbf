import type { Int8 } from '@sniplink/platform';
import type { ColumnType } from 'kysely';

/**
 * The admin Overview's counts of accounts and links, written by `adminStatsProjection` from the event log
 * and read through `./queries` (the click counts are click analytics', `rm_platform_click*`). Their
 * migrations are `…27T02-admin-stats` and `…28T13-admin-demo-links` in services/platform/src/db/migrations/.
 */
export type AdminStatsTables = {
  rm_admin_totals: RmAdminTotalsTable;
  rm_admin_activity: RmAdminActivityTable;
  rm_admin_granted_users: RmAdminUserSetTable;
  rm_admin_erased_users: RmAdminUserSetTable;
  rm_admin_demo_links: RmAdminDemoLinksTable;
};

/** Demo links no account holds: made on the landing page, not yet claimed, expired or deleted. */
export interface RmAdminDemoLinksTable {
  link_id: string;
}

/** One row (absent until the first event): what stands now, and the last event applied. */
export interface RmAdminTotalsTable {
  singleton: ColumnType<boolean, boolean | undefined, never>;
  /** Accounts registered and not erased. */
  users: Int8;
  /** Links created and not deleted (demo links too). */
  links: Int8;
  /** The position of the last event applied: one at or before it is a redelivery. */
  applied_commit: Int8;
  applied_prepare: Int8;
}

/** What happened in a quarter hour (UTC): sign-ups, and links accounts created, demo links not (erasure and deletion later do not undo them). */
export interface RmAdminActivityTable {
  quarter: ColumnType<Date, Date | string, Date | string>;
  signups: Int8;
  links_created: Int8;
}

export interface RmAdminUserSetTable {
  user_id: string;
}
