import { seoEvents } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/**
 * The pages' SEO entries, each as its stream's last event left it. Idempotent: a row is only written by an
 * event of a later revision of its stream. Its name is what each process's served pages follow
 * (`ProjectionProgress.onAdvance`), so a change shows on the next page load everywhere.
 */
export const seoProjection: Projection = {
  name: 'seo-settings',
  version: 1,
  handles: seoEvents.types,
  tables: ['rm_seo_settings'],
  apply: eachInOrder(applySeoEvent),
};

async function applySeoEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const { data } = seoEvents.narrow(recorded);
  const changes = {
    title: data.title,
    description: data.description,
    keywords: data.keywords,
    og_title: data.ogTitle,
    og_description: data.ogDescription,
    og_image: data.ogImage,
    is_public: data.isPublic,
    updated_at: recorded.occurredAt,
    last_revision: recorded.revision.toString(),
  };
  await trx
    .insertInto('rm_seo_settings')
    .values({ page: data.page, ...changes })
    .onConflict((oc) =>
      oc
        .column('page')
        .doUpdateSet(changes)
        .where('rm_seo_settings.last_revision', '<', recorded.revision.toString()),
    )
    .execute();
}
