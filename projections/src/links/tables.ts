import type { Int8 } from '@sniplink/platform';
import type { ColumnType, Selectable } from 'kysely';

/**
 * The links read model's table: one row per link, written by `linksProjection`, read through
 * `./queries`. Its migrations stay in services/platform/src/db/migrations/ (`…T05-links`), whose order
 * is history.
 */
export type LinksTables = {
  rm_links: RmLinksTable;
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
  last_revision: Int8;
}

export type LinkRow = Selectable<RmLinksTable>;
