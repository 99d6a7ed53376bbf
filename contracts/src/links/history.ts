import { z } from 'zod';

/**
 * Who made a change to a link, as its owner is told: `owner` (they, signed in), `api-key` (they, through
 * one of their API keys), `support` (an admin in the console), `operator` (a command-line tool or an
 * import run by whoever runs the site), `system` (the site on its own, such as a demo link moving into
 * the account its visitor signed up with). Never anyone's name or address.
 */
export const LINK_HISTORY_ACTORS = ['owner', 'api-key', 'support', 'operator', 'system'] as const;
export type LinkHistoryActor = (typeof LINK_HISTORY_ACTORS)[number];

/** What happened to the link, one entry per recorded change. */
export const LINK_HISTORY_TYPES = [
  'created',
  'title-changed',
  'target-changed',
  'code-changed',
  'code-approved',
  'code-rejected',
  'owner-changed',
  'password-set',
  'password-removed',
  'expiry-changed',
  'click-limit-changed',
  'fallback-changed',
  'paused',
  'unpaused',
  'tags-changed',
  'rules-changed',
] as const;
export type LinkHistoryType = (typeof LINK_HISTORY_TYPES)[number];

/** GET /api/links/{id}/history: one change of the link. */
export const linkHistoryEntrySchema = z
  .object({
    /** The recorded event's id. */
    id: z.string(),
    type: z.enum(LINK_HISTORY_TYPES),
    /** ISO instant. */
    occurredAt: z.string(),
    actor: z.enum(LINK_HISTORY_ACTORS),
    /** The change in a few words ("Target changed to https://…"); never a password. */
    summary: z.string(),
  })
  .meta({ id: 'LinkHistoryEntry' });
export type LinkHistoryEntry = z.infer<typeof linkHistoryEntrySchema>;
