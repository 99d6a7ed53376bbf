import {
  type Announcement,
  type AnnouncementAudience,
  announcementAudiences,
  announcementTypes,
} from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import type { Kysely, Selectable } from 'kysely';
import { withReadModels } from '../../read-models';
import type { RmAnnouncementsTable } from './tables';

const columns = [
  'announcement_id',
  'title',
  'message',
  'type',
  'target_audience',
  'is_active',
  'created_at',
] as const;

type AnnouncementRow = Pick<Selectable<RmAnnouncementsTable>, (typeof columns)[number]>;

/** Every announcement, newest first (the Announce tab's list; announcements are few). */
export async function allAnnouncements(db: Kysely<Database>): Promise<Announcement[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_announcements')
    .select(columns)
    .orderBy('created_at', 'desc')
    .orderBy('announcement_id', 'desc')
    .execute();
  return rows.map(toAnnouncement);
}

export async function announcementById(db: Kysely<Database>, id: string): Promise<Announcement | null> {
  const row = await withReadModels(db)
    .selectFrom('rm_announcements')
    .select(columns)
    .where('announcement_id', '=', id)
    .executeTakeFirst();
  return row ? toAnnouncement(row) : null;
}

/**
 * What a user is shown, newest first: the active announcements for any of `audiences` that the user has
 * not dismissed.
 */
export async function announcementsShownTo(
  db: Kysely<Database>,
  userId: string,
  audiences: readonly AnnouncementAudience[],
): Promise<Announcement[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_announcements as a')
    .select(columns.map((column) => `a.${column}` as const))
    .where('a.is_active', '=', true)
    .where('a.target_audience', 'in', audiences)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('rm_announcement_dismissals as d')
            .select('d.announcement_id')
            .whereRef('d.announcement_id', '=', 'a.announcement_id')
            .where('d.user_id', '=', userId),
        ),
      ),
    )
    .orderBy('a.created_at', 'desc')
    .orderBy('a.announcement_id', 'desc')
    .execute();
  return rows.map(toAnnouncement);
}

function toAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.announcement_id,
    title: row.title,
    message: row.message,
    type: oneOf(announcementTypes, row.type, 'info'),
    targetAudience: oneOf(announcementAudiences, row.target_audience, 'admin'),
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * The row's value if it is one the code knows; else `fallback` (a value written by a newer version: for
 * the audience, `admin`, the narrowest, so a banner never reaches more users than it was meant for).
 */
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;
