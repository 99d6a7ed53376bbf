import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup, upcaster } from '../events/registry';
import { stream } from '../events/streams';
import { TARGETING_DEVICES } from './controls';

/** A link's stream `link-{linkId}`. */
export const linkStream = stream('link');

/**
 * A code that contains a protected brand whose owner asks for approval: the link holds it, but it
 * redirects only once an admin approves it (the approval's id is the console's).
 */
const codeReview = z.object({ approvalId: z.uuid(), brand: z.string(), ownerId: z.string() });

/** Events of a link's stream `link-{linkId}`. */
export const linkEvents = eventGroup(
  defineEvent({
    type: 'LinkCreated',
    version: 1,
    schema: z.object({
      linkId: z.uuid(),
      /** A user id, or `visitor-{id}` for a demo link made without an account. */
      ownerId: z.string(),
      code: z.string(),
      originalUrl: z.string(),
      title: z.string().nullable(),
      origin: z.enum(['dashboard', 'duplicate', 'demo']),
      review: codeReview.optional(),
    }),
  }),
  defineEvent({ type: 'LinkRetitled', version: 1, schema: z.object({ title: z.string().nullable() }) }),
  defineEvent({ type: 'LinkRetargeted', version: 1, schema: z.object({ originalUrl: z.string() }) }),
  defineEvent({
    type: 'LinkCodeChanged',
    version: 1,
    schema: z.object({ code: z.string(), previousCode: z.string(), review: codeReview.optional() }),
  }),
  /** An admin let the code in review redirect. */
  defineEvent({
    type: 'LinkCodeApproved',
    version: 1,
    schema: z.object({ approvalId: z.uuid(), code: z.string(), notes: z.string().nullable() }),
  }),
  /** An admin refused the code in review; a `LinkCodeChanged` to a generated code follows in the same append. */
  defineEvent({
    type: 'LinkCodeRejected',
    version: 1,
    schema: z.object({ approvalId: z.uuid(), code: z.string(), reason: z.string() }),
  }),
  /** A visitor's demo link moved into the account they signed up or in with. */
  defineEvent({
    type: 'LinkOwnerChanged',
    version: 1,
    schema: z.object({ ownerId: z.string(), previousOwnerId: z.string() }),
  }),
  defineEvent({ type: 'LinkDeleted', version: 1, schema: z.object({}) }),
  /**
   * Visitors must give a password. The hash is not in the log (hashes live in operational tables, like
   * account passwords): `passwordId` names its row in `link_passwords`, so a new password is a new row.
   */
  defineEvent({ type: 'LinkPasswordSet', version: 1, schema: z.object({ passwordId: z.uuid() }) }),
  defineEvent({ type: 'LinkPasswordRemoved', version: 1, schema: z.object({}) }),
  /** An ISO instant after which the link is expired; null: it never expires by time. */
  defineEvent({
    type: 'LinkExpiryChanged',
    version: 1,
    schema: z.object({ expiresAt: z.iso.datetime({ offset: true }).nullable() }),
  }),
  /** Human clicks the link redirects before it expires; null: no limit. */
  defineEvent({
    type: 'LinkClickLimitChanged',
    version: 1,
    schema: z.object({ maxClicks: z.number().int().min(1).nullable() }),
  }),
  /** Where the link sends visitors once expired; null: the expired page. */
  defineEvent({
    type: 'LinkFallbackChanged',
    version: 1,
    schema: z.object({ fallbackUrl: z.string().nullable() }),
  }),
  defineEvent({ type: 'LinkPaused', version: 1, schema: z.object({}) }),
  defineEvent({ type: 'LinkUnpaused', version: 1, schema: z.object({}) }),
  /** The link's tags as they now are (lower-case, each once). */
  defineEvent({ type: 'LinkTagsChanged', version: 1, schema: z.object({ tags: z.array(z.string()) }) }),
  /** The link's targeting rules as they now are, in order (empty: none); each URL checked as a target. */
  defineEvent({
    type: 'LinkRulesChanged',
    version: 1,
    schema: z.object({
      rules: z.array(
        z.object({
          when: z.object({
            country: z.array(z.string()).optional(),
            device: z.array(z.enum(TARGETING_DEVICES)).optional(),
            language: z.array(z.string()).optional(),
          }),
          url: z.string(),
        }),
      ),
    }),
  }),
);

const releaseReasons = ['abandoned', 'never-clicked'] as const;

/** A short code's claim `shortcode-{code}`: one stream per code whatever its case, so named in lower case. */
export const shortCodeStream = stream('shortcode', (code) => code.toLowerCase());

/**
 * Events of a code's stream `shortcode-{lower-cased code}`: a code points to at most one link, and once a
 * link on it was clicked, it never goes to another account.
 */
export const shortCodeEvents = eventGroup(
  defineEvent({
    type: 'ShortCodeClaimed',
    version: 1,
    schema: z.object({ code: z.string(), ownerId: z.string(), linkId: z.uuid() }),
  }),
  /**
   * The link moved off the code (code changed, link deleted) and the code stays its owner's for good:
   * `clicked` (the link has counted clicks), `unconfirmed` (clicks may not all be counted yet),
   * `clicked-before` (an earlier link on it was kept so). Absent: retired before reasons were recorded,
   * when every code given up was kept.
   */
  defineEvent({
    type: 'ShortCodeRetired',
    version: 1,
    schema: z.object({
      linkId: z.uuid(),
      reason: z.enum(['clicked', 'unconfirmed', 'clicked-before']).optional(),
    }),
  }),
  /**
   * The code is free again: `abandoned` (a claim whose link was never created: a later step failed) or
   * `never-clicked` (the link moved off it before anyone followed it). Version 1 had no reason at first:
   * every release was then `abandoned`.
   */
  defineEvent({
    type: 'ShortCodeReleased',
    version: 2,
    schema: z.object({ linkId: z.uuid(), reason: z.enum(releaseReasons) }),
    upcasters: [
      upcaster(z.object({ linkId: z.uuid(), reason: z.enum(releaseReasons).optional() }), (v1) => ({
        ...v1,
        reason: v1.reason ?? 'abandoned',
      })),
    ],
  }),
  defineEvent({
    type: 'ShortCodeOwnerChanged',
    version: 1,
    schema: z.object({ ownerId: z.string(), previousOwnerId: z.string() }),
  }),
  /** The premium catalogue's slug `premiumslug-{slugId}` holds the code: no link may take it. */
  defineEvent({
    type: 'ShortCodeReservedForPremiumSlug',
    version: 1,
    schema: z.object({ code: z.string(), slugId: z.uuid() }),
  }),
  /** The premium slug was deleted (or never added: a later step failed): the code is free again. */
  defineEvent({
    type: 'ShortCodePremiumSlugReleased',
    version: 1,
    schema: z.object({ slugId: z.uuid(), reason: z.enum(['deleted', 'abandoned']) }),
  }),
);

/** Link allowance events on the user's stream `user-{userId}` (docs/architecture.md, "Which stream guards which rule"). */
export const linkQuotaEvents = eventGroup(
  /** A link counted against the plan: Free holds at most 5, Pro creates at most 500 per UTC month. */
  defineEvent({
    type: 'LinkSlotTaken',
    version: 1,
    schema: z.object({ linkId: z.uuid(), month: z.string().regex(/^\d{4}-\d{2}$/) }),
  }),
  /**
   * `deleted`: the link is gone (frees a Free slot; a Pro month keeps its count);
   * `abandoned`: its creation failed after the slot was taken (gives the month's count back too).
   */
  defineEvent({
    type: 'LinkSlotReleased',
    version: 1,
    schema: z.object({ linkId: z.uuid(), month: z.string(), reason: z.enum(['deleted', 'abandoned']) }),
  }),
);

export type LinkEvent = EventsIn<typeof linkEvents>;
export type ShortCodeEvent = EventsIn<typeof shortCodeEvents>;
export type LinkQuotaEvent = EventsIn<typeof linkQuotaEvents>;
