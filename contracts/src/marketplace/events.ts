import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { premiumCategories, premiumHoldReleaseReasons, premiumTiers } from './premium-slugs';

const slugId = z.object({ slugId: z.uuid() });

/** A buyer's payment for a slug under a hold: the provider's payment id and what it took, in cents. */
const payment = z.object({
  holdId: z.uuid(),
  buyerId: z.uuid(),
  paymentId: z.string().min(1),
  amount: z.number().int().min(0),
  currency: z.string(),
});

/** What an admin may change on a listed slug; absent is unchanged. */
const editable = z.object({
  price: z.number().int().min(0),
  category: z.enum(premiumCategories),
  tier: z.enum(premiumTiers),
  isAvailable: z.boolean(),
  stripePriceId: z.string().nullable(),
});

/** A premium slug's stream `premiumslug-{slugId}`. */
export const premiumSlugStream = stream('premiumslug');

/**
 * Events of a premium slug's stream `premiumslug-{id}`: the catalogue entry an admin added, edited and
 * deleted. Its code is claimed in the short-code namespace (`shortcode-{slug}`) before it is added and
 * released after it is deleted. Each carries the acting admin in its metadata, so the audit history
 * needs nothing more.
 */
export const premiumSlugEvents = eventGroup(
  defineEvent({
    type: 'PremiumSlugAdded',
    version: 1,
    schema: slugId.extend({
      /** Lower-cased and trimmed, 1-20 characters. */
      slug: z.string().min(1).max(20),
      ...editable.shape,
    }),
  }),
  defineEvent({ type: 'PremiumSlugEdited', version: 1, schema: slugId.extend(editable.partial().shape) }),
  defineEvent({ type: 'PremiumSlugDeleted', version: 1, schema: slugId.extend({ slug: z.string() }) }),
  /** A buyer holds the slug while paying: nobody else may start a purchase until it expires or is released. */
  defineEvent({
    type: 'PremiumSlugHeld',
    version: 1,
    schema: slugId.extend({
      holdId: z.uuid(),
      buyerId: z.uuid(),
      /** Cents: the price the payment is made for. */
      price: z.number().int().min(0),
      expiresAt: z.iso.datetime(),
    }),
  }),
  /** A hold ended without a sale: it expired (recorded when the next buyer came), or its payment failed or was canceled. */
  defineEvent({
    type: 'PremiumSlugHoldReleased',
    version: 1,
    schema: slugId.extend({ holdId: z.uuid(), reason: z.enum(premiumHoldReleaseReasons) }),
  }),
  /** The provider took the buyer's payment: the buyer owns the slug (recorded once per payment). */
  defineEvent({
    type: 'PremiumSlugPurchased',
    version: 1,
    schema: slugId.extend({ ...payment.shape, providerEventId: z.string() }),
  }),
  /** A payment that came when the slug was no longer the payer's to have, refunded at the provider. */
  defineEvent({
    type: 'PremiumSlugPaymentRefunded',
    version: 1,
    schema: slugId.extend({
      ...payment.shape,
      refundId: z.string(),
      providerEventId: z.string(),
      /**
       * Why it could not be sold: owned by another, held by another, no longer in the catalogue, or the
       * payer's account suspended.
       */
      reason: z.enum(['owned', 'held', 'unlisted', 'suspended']),
    }),
  }),
  /**
   * The provider refunded a payment for the slug in full after it was taken: by the operator in the
   * provider's dashboard, or a refund of ours whose own record came first. The payment buys nothing from
   * then on; when it is the one the owner bought the slug with (`slugReleased`), the slug goes back to
   * the catalogue, its target removed, as a link shortener takes back a paid domain that was refunded.
   */
  defineEvent({
    type: 'PremiumSlugPurchaseRefunded',
    version: 1,
    schema: slugId.extend({
      slug: z.string(),
      ...payment.shape,
      providerEventId: z.string(),
      slugReleased: z.boolean(),
    }),
  }),
  /** The owner set the URL `/s/{slug}` redirects to, or removed it (`url` null). */
  defineEvent({
    type: 'PremiumSlugTargetSet',
    version: 1,
    schema: slugId.extend({ slug: z.string(), ownerId: z.uuid(), url: z.string().nullable() }),
  }),
);
export type PremiumSlugEvent = EventsIn<typeof premiumSlugEvents>;

const holdId = z.object({ buyerId: z.uuid(), holdId: z.uuid(), slugId: z.uuid() });

/** A buyer's purchases `premiumbuyer-{userId}`. */
export const premiumBuyerStream = stream('premiumbuyer');

/**
 * Events of a buyer's stream `premiumbuyer-{userId}`: the holds and slugs that count towards the buyer's
 * limit (`premium.max_owned_slugs`). A hold is claimed here first, with the stream's expected revision,
 * before the slug is held; what is claimed and not held is released.
 */
export const premiumBuyerEvents = eventGroup(
  defineEvent({
    type: 'PremiumBuyerHoldClaimed',
    version: 1,
    schema: holdId.extend({ expiresAt: z.iso.datetime() }),
  }),
  defineEvent({
    type: 'PremiumBuyerHoldReleased',
    version: 1,
    schema: holdId.extend({ reason: z.enum([...premiumHoldReleaseReasons, 'not_held', 'refunded']) }),
  }),
  defineEvent({ type: 'PremiumBuyerSlugOwned', version: 1, schema: holdId }),
  /** The payment the buyer owned the slug by was refunded: the slug no longer counts towards their limit. */
  defineEvent({ type: 'PremiumBuyerSlugReturned', version: 1, schema: holdId }),
);
export type PremiumBuyerEvent = EventsIn<typeof premiumBuyerEvents>;
