import { pageCopyEvents } from '@sniplink/contracts/content/events';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/**
 * The informational pages' copy: each page's draft, and every published version. Idempotent: the draft's
 * row is only written by an event of a later revision of its stream, and a version is inserted once.
 */
export const pageCopyProjection: Projection = {
  name: 'page-copy',
  version: 1,
  handles: pageCopyEvents.types,
  tables: ['rm_page_copy', 'rm_page_copy_versions'],
  apply: eachInOrder(applyPageCopyEvent),
};

async function applyPageCopyEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const event = pageCopyEvents.narrow(recorded);
  const { page, title, content } = event.data;
  const lastRevision = recorded.revision.toString();
  if (event.type === 'PageCopyDraftSaved') {
    const changes = {
      title,
      content,
      published: false,
      updated_at: recorded.occurredAt,
      last_revision: lastRevision,
    };
    await trx
      .insertInto('rm_page_copy')
      .values({ page, ...changes, version: 0, published_at: null })
      .onConflict((oc) =>
        oc.column('page').doUpdateSet(changes).where('rm_page_copy.last_revision', '<', lastRevision),
      )
      .execute();
    return;
  }
  const { version } = event.data;
  const changes = {
    title,
    content,
    published: true,
    version,
    published_at: recorded.occurredAt,
    last_revision: lastRevision,
  };
  await trx
    .insertInto('rm_page_copy')
    .values({ page, ...changes, updated_at: recorded.occurredAt })
    .onConflict((oc) =>
      oc.column('page').doUpdateSet(changes).where('rm_page_copy.last_revision', '<', lastRevision),
    )
    .execute();
  await trx
    .insertInto('rm_page_copy_versions')
    .values({ page, version, title, content, published_at: recorded.occurredAt })
    .onConflict((oc) => oc.columns(['page', 'version']).doNothing())
    .execute();
}
