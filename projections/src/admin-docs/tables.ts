import type { Int8 } from '@sniplink/platform';

/**
 * The admin docs read model, written by `adminDocsProjection` from the streams `admindoc-{docId}`, read
 * through `./queries`. Its migration is `…28T14-admin-docs` in services/platform/src/db/migrations/.
 */
export type AdminDocsTables = {
  rm_admin_docs: RmAdminDocsTable;
};

export interface RmAdminDocsTable {
  doc_id: string;
  section: string;
  title: string;
  content: string;
  sort_order: number;
  /** Deleted: kept as a tombstone so that an older event delivered again cannot bring the doc back. */
  deleted: boolean;
  /** The actor of the event that wrote the row: an admin's user id, or `system`. */
  last_updated_by: string;
  updated_at: Date;
  /** The doc stream's revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}
