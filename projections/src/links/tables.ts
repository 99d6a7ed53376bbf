import type { TargetingRule } from '@sniplink/contracts';
import type { Int8 } from '@sniplink/platform';
import type { ColumnType, Selectable } from 'kysely';

/**
 * The links read model's table: one row per link, written by `linksProjection`, read through
 * `./queries`. Its migrations stay in services/platform/src/db/migrations/ (`…T05-links`), whose order
 * is history.
 */
export type LinksTables = {
  rm_links: RmLinksTable;
  rm_link_owners: RmLinkOwnersTable;
};

export interface RmLinksTable {
  link_id: string;
  owner_id: string;
  code: string;
  code_lower: string;
  original_url: string;
  title: string | null;
  origin: string;
  created_at: Date;
  updated_at: Date;
  deleted: ColumnType<boolean, boolean | undefined, boolean>;
  /** The code contains a protected brand and waits for an admin's approval: it redirects nowhere yet. */
  pending_approval: ColumnType<boolean, boolean | undefined, boolean>;
  last_revision: Int8;
  /** The `link_passwords` row in force, or null when the link has no password. */
  password_id: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  max_clicks: ColumnType<number | null, number | null | undefined, number | null>;
  fallback_url: ColumnType<string | null, string | null | undefined, string | null>;
  paused: ColumnType<boolean, boolean | undefined, boolean>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  /** Targeting rules in order (jsonb, written as its JSON text), `[]` for none. */
  rules: ColumnType<TargetingRule[], string | undefined, string>;
}

export type LinkRow = Selectable<RmLinksTable>;

/**
 * Owners whose account was ever suspended (migration `…28T07-suspended-link-owners`), from their user
 * stream's `UserSuspended` and `UserUnsuspended`: while `suspended`, their links and premium slugs redirect
 * nowhere.
 */
export interface RmLinkOwnersTable {
  owner_id: string;
  suspended: boolean;
  /** The user stream's revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}
