import { adminDocEvents } from '@sniplink/contracts/admin-docs/events';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/**
 * The Docs tab's read model: each doc as its stream's last event left it, with who wrote that event.
 * Idempotent: a row is only written by an event of a later revision of its stream, and a deletion is a
 * tombstone, not a removed row.
 */
export const adminDocsProjection: Projection = {
  name: 'admin-docs',
  version: 1,
  handles: adminDocEvents.types,
  tables: ['rm_admin_docs'],
  apply: eachInOrder(applyAdminDocEvent),
};

async function applyAdminDocEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const event = adminDocEvents.narrow(recorded);
  const written = {
    last_updated_by: recorded.actorId ?? 'system',
    updated_at: recorded.occurredAt,
    last_revision: recorded.revision.toString(),
  };
  if (event.type === 'AdminDocDeleted') {
    await trx
      .updateTable('rm_admin_docs')
      .set({ ...written, deleted: true })
      .where('doc_id', '=', event.data.docId)
      .where('last_revision', '<', written.last_revision)
      .execute();
    return;
  }
  const { docId, section, title, content, sortOrder } = event.data;
  const row = { section, title, content, sort_order: sortOrder, deleted: false, ...written };
  await trx
    .insertInto('rm_admin_docs')
    .values({ doc_id: docId, ...row })
    .onConflict((oc) =>
      oc.column('doc_id').doUpdateSet(row).where('rm_admin_docs.last_revision', '<', written.last_revision),
    )
    .execute();
}
