import type { Int8 } from '@sniplink/platform';
import type { ColumnType } from 'kysely';

/**
 * The audit history's table: one row per event an admin (in the console) or an operator (at the command
 * line) caused, written by `adminAuditProjection`, read through `./queries`. Its migration is
 * `…27T05-admin-audit` in services/platform/src/db/migrations/.
 */
export type AdminAuditTables = {
  rm_admin_audit: RmAdminAuditTable;
};

export interface RmAdminAuditTable {
  event_id: string;
  /** The event's place in the global log: the history's order (newest first). */
  log_commit: Int8;
  log_prepare: Int8;
  occurred_at: Date;
  /** The admin's user id, `operator` or `system`. */
  actor_id: string;
  /** `admin-console` or `operator`: the way the command came in. */
  channel: string;
  /** The event's type. */
  action: string;
  stream_id: string;
  /** The stream's category and the rest of its id: `user-{id}` is `user` and `{id}`. */
  target_type: string;
  target_id: string;
  /** Written as JSON text (an array would otherwise go to pg as a PostgreSQL array). */
  details: ColumnType<Record<string, unknown>, string, never>;
}
