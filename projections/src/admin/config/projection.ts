import { configEvents } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../../projection';
import type { ReadModelDatabase } from '../../read-models';

/** Its name is what the settings of every process follow (`ProjectionProgress.onAdvance`). */

/**
 * The config entries: each key as its stream's last event left it. Idempotent: a row is only written by an
 * event of a later revision of its stream, and a deletion is a tombstone, not a removed row.
 */
export const configProjection: Projection = {
  name: 'admin-config',
  version: 1,
  handles: configEvents.types,
  tables: ['rm_admin_config'],
  apply: eachInOrder(applyConfigEvent),
};

async function applyConfigEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const event = configEvents.narrow(recorded);
  const row =
    event.type === 'ConfigEntryDeleted'
      ? { value: '', description: null, deleted: true }
      : { value: event.data.value, description: event.data.description, deleted: false };
  const changes = { ...row, updated_at: recorded.occurredAt, last_revision: recorded.revision.toString() };
  await trx
    .insertInto('rm_admin_config')
    .values({ key: event.data.key, ...changes })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet(changes)
        .where('rm_admin_config.last_revision', '<', recorded.revision.toString()),
    )
    .execute();
}
