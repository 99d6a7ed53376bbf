import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { visibleText as text } from '../text';

/** An announcement's colour on the dashboard. */
export const announcementTypes = ['info', 'warning', 'success', 'error'] as const;
export type AnnouncementType = (typeof announcementTypes)[number];

/**
 * Who sees an announcement: `all` everyone signed in, `free` users who are not Pro, `paid` Pro users,
 * `admin` admins (an admin also sees what their plan's audience sees).
 */
export const announcementAudiences = ['all', 'free', 'paid', 'admin'] as const;
export type AnnouncementAudience = (typeof announcementAudiences)[number];

/** A banner's title stays on one line; its message is a paragraph or two, never a page. */
export const ANNOUNCEMENT_TITLE_MAX = 120;
export const ANNOUNCEMENT_MESSAGE_MAX = 2_000;

/**
 * `POST /api/admin/announcements`; the defaults are type info,
 * audience all, active.
 */
export const createAnnouncementBody = z.object({
  title: text(ANNOUNCEMENT_TITLE_MAX),
  message: text(ANNOUNCEMENT_MESSAGE_MAX),
  type: z.enum(announcementTypes).default('info'),
  targetAudience: z.enum(announcementAudiences).default('all'),
  isActive: z.boolean().default(true),
});
export type CreateAnnouncementBody = z.input<typeof createAnnouncementBody>;

/** `PATCH /api/admin/announcements/{id}`: switch it off (or on again). */
export const setAnnouncementActiveBody = z.object({ isActive: z.boolean() });
export type SetAnnouncementActiveBody = z.infer<typeof setAnnouncementActiveBody>;

/** An announcement as the console lists it (its fields, and its id). */
export const announcementSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  type: z.enum(announcementTypes),
  targetAudience: z.enum(announcementAudiences),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** `GET /api/announcements`: what a signed-in user is shown (the audience is not theirs to see). */
export const userAnnouncementSchema = announcementSchema.pick({
  id: true,
  title: true,
  message: true,
  type: true,
  createdAt: true,
});
export type UserAnnouncement = z.infer<typeof userAnnouncementSchema>;

/** `POST /api/announcements/{id}/dismiss`: gone for this user, for good. */
export const dismissedAnnouncementSchema = z.object({ id: z.string(), dismissed: z.literal(true) });

const announcementId = z.object({ announcementId: z.uuid() });

/**
 * Events of an announcement's stream `announcement-{id}`. Each carries the acting admin in its metadata
 * (the command context's actor), so the audit history needs nothing more.
 */
export const announcementEvents = eventGroup(
  defineEvent({
    type: 'AnnouncementPublished',
    version: 1,
    schema: announcementId.extend({
      title: z.string().min(1).max(ANNOUNCEMENT_TITLE_MAX),
      message: z.string().min(1).max(ANNOUNCEMENT_MESSAGE_MAX),
      type: z.enum(announcementTypes),
      targetAudience: z.enum(announcementAudiences),
      /** Published switched off: kept in the list, shown to no one until switched on. */
      isActive: z.boolean(),
    }),
  }),
  defineEvent({ type: 'AnnouncementSwitchedOff', version: 1, schema: announcementId }),
  defineEvent({ type: 'AnnouncementSwitchedOn', version: 1, schema: announcementId }),
);
export type AnnouncementEvent = EventsIn<typeof announcementEvents>;

/**
 * Events of a user's stream `announcementdismissals-{userId}`: the announcements the user closed, each
 * once. A stream of its own, so the user stream every account command loads stays short.
 */
export const announcementDismissalEvents = eventGroup(
  defineEvent({ type: 'AnnouncementDismissed', version: 1, schema: announcementId }),
);
export type AnnouncementDismissalEvent = EventsIn<typeof announcementDismissalEvents>;
