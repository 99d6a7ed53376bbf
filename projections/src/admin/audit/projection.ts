import { type CommandChannel, channelOf, type RecordedEvent } from '@sniplink/platform';
import type { Insertable } from 'kysely';
import type { Projection } from '../../projection';
import { categoryOf } from '../../stream-catalogue/projection';
import { auditDetails } from './details';
import type { RmAdminAuditTable } from './tables';

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters, whatever the batch size. */
const ROWS_PER_INSERT = 1_000;

/**
 * The audit history: every event whose command came in through the admin console or an operator's tool,
 * whatever its type (the command context stamps the channel on each event, see
 * services/platform/src/eventstore/command-context.ts), so an action added later is listed with no change
 * here. An event's id is its row's key: a re-delivered event is inserted once. Rebuildable from the log.
 */
export const adminAuditProjection: Projection = {
  name: 'admin-audit',
  version: 1,
  handles: 'all',
  tables: ['rm_admin_audit'],
  async apply(trx, events) {
    const rows = new Map<string, Insertable<RmAdminAuditTable>>();
    for (const event of events) {
      const channel = auditedChannel(event);
      if (channel && !rows.has(event.id)) rows.set(event.id, auditRow(event, channel));
    }
    const all = [...rows.values()];
    for (let i = 0; i < all.length; i += ROWS_PER_INSERT) {
      await trx
        .insertInto('rm_admin_audit')
        .values(all.slice(i, i + ROWS_PER_INSERT))
        .onConflict((oc) => oc.column('event_id').doNothing())
        .execute();
    }
  },
};

/**
 * The channel an event came through. Events an operator's tool appended before channels were recorded
 * carry `operator` as their actor and nothing else: they are the operator's too.
 */
function auditedChannel(event: RecordedEvent): AuditedChannel | null {
  const channel = channelOf(event) ?? (event.actorId === 'operator' ? 'operator' : null);
  return channel === 'admin-console' || channel === 'operator' ? channel : null;
}

/** The privileged channels: a user's own calls with an API key (`api`) are theirs, not the console's. */
type AuditedChannel = Exclude<CommandChannel, 'api'>;

function auditRow(event: RecordedEvent, channel: AuditedChannel): Insertable<RmAdminAuditTable> {
  const type = categoryOf(event.streamId);
  return {
    event_id: event.id,
    log_commit: event.globalPosition.commit,
    log_prepare: event.globalPosition.prepare,
    occurred_at: event.occurredAt,
    actor_id: event.actorId ?? 'system',
    channel,
    action: event.type,
    stream_id: event.streamId,
    target_type: type,
    target_id: event.streamId.length > type.length ? event.streamId.slice(type.length + 1) : event.streamId,
    details: JSON.stringify(auditDetails(event.data)),
  };
}
