import type { Int8 } from '@sniplink/platform';

/**
 * The page copy read model, written by `pageCopyProjection` from the streams `page-{page}`, read through
 * `./queries`. Its migration is `…28T14-page-copy` in services/platform/src/db/migrations/.
 */
export type PageCopyTables = {
  rm_page_copy: RmPageCopyTable;
  rm_page_copy_versions: RmPageCopyVersionsTable;
};

/** One row per page ever saved: its draft and where it stands. */
export interface RmPageCopyTable {
  page: string;
  title: string;
  content: string;
  /** Whether the draft is the version last published. */
  published: boolean;
  /** The last published version's number: 0 before the first. */
  version: number;
  published_at: Date | null;
  updated_at: Date;
  /** The stream revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}

/** One row per published version, as published. */
export interface RmPageCopyVersionsTable {
  page: string;
  version: number;
  title: string;
  content: string;
  published_at: Date;
}
