import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../../read-models';

export interface AuditFilter {
  /** The acting admin's user id, or `operator`. */
  actor?: string;
  /** A stream id (`user-{id}`), or the id alone (matched against the targets' ids). */
  target?: string;
  /** From 1. */
  page: number;
  pageSize: number;
}

export interface AuditRecord {
  eventId: string;
  occurredAt: Date;
  action: string;
  actor: {
    id: string;
    channel: string;
    /** The admin's address now; null for the operator, the system, or an erased account. */
    email: string | null;
    erased: boolean;
  };
  target: { streamId: string; type: string; id: string };
  details: Record<string, unknown>;
}

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One page of the audit history, newest first (by place in the log), filtered by acting admin and by
 * target. Each admin is named by their e-mail address as the users read model holds it now (so an
 * erased admin shows as erased). One more row than the page is read to tell whether another page follows.
 */
export async function auditHistory(
  db: Kysely<Database>,
  { actor, target, page, pageSize }: AuditFilter,
): Promise<{ records: AuditRecord[]; hasMore: boolean }> {
  const rows = await withReadModels(db)
    .selectFrom('rm_admin_audit')
    .selectAll()
    .$if(actor !== undefined, (query) => query.where('actor_id', '=', actor ?? ''))
    .$if(target !== undefined, (query) =>
      query.where((eb) => eb.or([eb('stream_id', '=', target ?? ''), eb('target_id', '=', target ?? '')])),
    )
    .orderBy('log_commit', 'desc')
    .orderBy('log_prepare', 'desc')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  const shown = rows.slice(0, pageSize);
  const admins = await adminsById(db, [...new Set(shown.map((row) => row.actor_id))]);
  return {
    records: shown.map((row) => {
      const admin = admins.get(row.actor_id);
      return {
        eventId: row.event_id,
        occurredAt: row.occurred_at,
        action: row.action,
        actor: {
          id: row.actor_id,
          channel: row.channel,
          email: admin && !admin.erased ? admin.email : null,
          erased: admin?.erased ?? false,
        },
        target: { streamId: row.stream_id, type: row.target_type, id: row.target_id },
        details: row.details,
      };
    }),
    hasMore: rows.length > pageSize,
  };
}

/** The accounts among these actors (user ids; `operator` and `system` are none), with their address. */
async function adminsById(db: Kysely<Database>, actorIds: string[]) {
  const userIds = actorIds.filter((id) => USER_ID.test(id));
  if (userIds.length === 0) return new Map<string, { email: string | null; erased: boolean }>();
  const rows = await withReadModels(db)
    .selectFrom('rm_users')
    .select(['user_id', 'email', 'erased'])
    .where('user_id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.user_id, { email: row.email, erased: row.erased }]));
}
