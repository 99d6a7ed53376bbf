import { z } from 'zod';
import type { EventUnion } from './event-union';

/** Events of a link's stream `link-{linkId}`. */
export const linkEventSchemas = {
  LinkCreated: z.object({
    linkId: z.uuid(),
    /** A user id, or `visitor-{id}` for a demo link made without an account. */
    ownerId: z.string(),
    code: z.string(),
    originalUrl: z.string(),
    title: z.string().nullable(),
    origin: z.enum(['dashboard', 'duplicate', 'demo']),
  }),
  LinkRetitled: z.object({ title: z.string().nullable() }),
  LinkRetargeted: z.object({ originalUrl: z.string() }),
  LinkCodeChanged: z.object({ code: z.string(), previousCode: z.string() }),
  /** A visitor's demo link moved into the account they signed up or in with. */
  LinkOwnerChanged: z.object({ ownerId: z.string(), previousOwnerId: z.string() }),
  LinkDeleted: z.object({}),
} as const;

/**
 * Events of a code's stream `shortcode-{lower-cased code}`: a code points to at most one link, and once a
 * link on it was clicked, it never goes to another account.
 */
export const shortCodeEventSchemas = {
  ShortCodeClaimed: z.object({ code: z.string(), ownerId: z.string(), linkId: z.uuid() }),
  /**
   * The link moved off the code (code changed, link deleted) and the code stays its owner's for good:
   * `clicked` (the link has counted clicks), `unconfirmed` (clicks may not all be counted yet),
   * `clicked-before` (an earlier link on it was kept so). Absent: retired before reasons were recorded,
   * when every code given up was kept.
   */
  ShortCodeRetired: z.object({
    linkId: z.uuid(),
    reason: z.enum(['clicked', 'unconfirmed', 'clicked-before']).optional(),
  }),
  /**
   * The code is free again: `abandoned` (a claim whose link was never created: a later step failed) or
   * `never-clicked` (the link moved off it before anyone followed it). Absent: `abandoned`.
   */
  ShortCodeReleased: z.object({
    linkId: z.uuid(),
    reason: z.enum(['abandoned', 'never-clicked']).optional(),
  }),
  ShortCodeOwnerChanged: z.object({ ownerId: z.string(), previousOwnerId: z.string() }),
} as const;

/** Link allowance events on the user's stream `user-{userId}` (docs/architecture.md, "Which stream guards which rule"). */
export const linkQuotaEventSchemas = {
  /** A link counted against the plan: Free holds at most 5, Pro creates at most 500 per UTC month. */
  LinkSlotTaken: z.object({ linkId: z.uuid(), month: z.string().regex(/^\d{4}-\d{2}$/) }),
  /**
   * `deleted`: the link is gone (frees a Free slot; a Pro month keeps its count);
   * `abandoned`: its creation failed after the slot was taken (gives the month's count back too).
   */
  LinkSlotReleased: z.object({
    linkId: z.uuid(),
    month: z.string(),
    reason: z.enum(['deleted', 'abandoned']),
  }),
} as const;

export type LinkEvent = EventUnion<typeof linkEventSchemas>;
export type ShortCodeEvent = EventUnion<typeof shortCodeEventSchemas>;
export type LinkQuotaEvent = EventUnion<typeof linkQuotaEventSchemas>;
