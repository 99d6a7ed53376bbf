import {
  announcementDismissalEvents,
  announcementDismissalsStream,
  announcementEvents,
  userEvents,
  userStream,
} from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../../projection';
import type { ReadModelDatabase } from '../../read-models';

/**
 * The announcements read model: every announcement (published, switched off or on again), and each
 * user's dismissals, which the user's erasure drops. Idempotent: a row is written once or only by an
 * event of a later revision of its stream; a dismissal is inserted once.
 */
export const announcementsProjection: Projection = {
  name: 'announcements',
  version: 1,
  handles: [...announcementEvents.types, ...announcementDismissalEvents.types, 'UserErased'],
  tables: ['rm_announcements', 'rm_announcement_dismissals'],
  apply: eachInOrder(applyAnnouncementEvent),
};

async function applyAnnouncementEvent(
  trx: Transaction<ReadModelDatabase>,
  recorded: RecordedEvent,
): Promise<void> {
  const at = recorded.occurredAt;
  const revision = recorded.revision.toString();
  if (announcementDismissalEvents.includes(recorded)) {
    await trx
      .insertInto('rm_announcement_dismissals')
      .values({
        user_id: announcementDismissalsStream.idOf(recorded),
        announcement_id: recorded.data.announcementId,
        dismissed_at: at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'announcement_id']).doNothing())
      .execute();
    return;
  }
  if (userEvents.includes(recorded)) {
    // Only UserErased is delivered: the account's dismissals go with it.
    await trx
      .deleteFrom('rm_announcement_dismissals')
      .where('user_id', '=', userStream.idOf(recorded))
      .execute();
    return;
  }
  const event = announcementEvents.narrow(recorded);
  const { announcementId } = event.data;
  if (event.type === 'AnnouncementPublished') {
    const { title, message, type, targetAudience, isActive } = event.data;
    await trx
      .insertInto('rm_announcements')
      .values({
        announcement_id: announcementId,
        title,
        message,
        type,
        target_audience: targetAudience,
        is_active: isActive,
        created_at: at,
        updated_at: at,
        last_revision: revision,
      })
      .onConflict((oc) => oc.column('announcement_id').doNothing())
      .execute();
    return;
  }
  await trx
    .updateTable('rm_announcements')
    .set({ is_active: event.type === 'AnnouncementSwitchedOn', updated_at: at, last_revision: revision })
    .where('announcement_id', '=', announcementId)
    .where('last_revision', '<', revision)
    .execute();
}
