import type { Int8 } from '@sniplink/platform';

/**
 * The announcements read model's tables, written by `announcementsProjection` from the announcement
 * streams `announcement-{id}`, the dismissals streams `announcementdismissals-{userId}` and the users'
 * erasures; read through `./queries`. Their migration is `…27T04-announcements`.
 */
export type AnnouncementsTables = {
  rm_announcements: RmAnnouncementsTable;
  rm_announcement_dismissals: RmAnnouncementDismissalsTable;
};

/** One row per announcement, as its last event left it. */
export interface RmAnnouncementsTable {
  announcement_id: string;
  title: string;
  message: string;
  type: string;
  target_audience: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  /** The announcement stream's revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}

/** A user closed an announcement's banner, for good. Dropped when the user is erased. */
export interface RmAnnouncementDismissalsTable {
  user_id: string;
  announcement_id: string;
  dismissed_at: Date;
}
