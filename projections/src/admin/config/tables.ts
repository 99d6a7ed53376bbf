import type { Int8 } from '@sniplink/platform';

/**
 * The config entries read model, written by `configProjection` from the streams `config-{key}`, read
 * through `./queries`. Its migration is `…27T03-admin-config` in services/platform/src/db/migrations/.
 */
export type AdminConfigTables = {
  rm_admin_config: RmAdminConfigTable;
};

export interface RmAdminConfigTable {
  key: string;
  value: string;
  description: string | null;
  /** Deleted: kept as a tombstone so that an older event delivered again cannot bring the entry back. */
  deleted: boolean;
  updated_at: Date;
  /** The stream revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}
