import { z } from 'zod';
import { pageNumber } from '../paging';
import { PREMIUM_SLUGS_PER_PAGE, premiumCategories, premiumTiers } from './premium-slugs';

const price = z
  .number({ error: 'must be a whole number of cents' })
  .int('must be a whole number of cents')
  .min(0, 'must be greater than or equal to 0')
  .max(100_000_000, 'must be at most 100,000,000 cents');
/** Blank is no price id (the console omits it when blank; a blank one sent is treated the same). */
const stripePriceId = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .transform((value) => (value === '' ? null : value));

/**
 * `POST /api/admin/premium-slugs`. The slug is lower-cased and trimmed by the
 * server, which checks its shape (1-20 letters, digits, hyphens, underscores); `price` (cents) defaults to
 * the setting `premium.slug_price_cents`, category to common-words, tier to standard, available to true.
 */
export const createPremiumSlugBody = z.object({
  slug: z.string().max(100, 'must be at most 20 characters'),
  category: z.enum(premiumCategories).default('common-words'),
  price: price.optional(),
  stripePriceId: stripePriceId.nullable().optional(),
  tier: z.enum(premiumTiers).default('standard'),
  isAvailable: z.boolean().default(true),
});
export type CreatePremiumSlugBody = z.input<typeof createPremiumSlugBody>;

/** `PATCH /api/admin/premium-slugs/{id}`: the fields edited; the slug itself stays (delete and add to rename). */
export const updatePremiumSlugBody = z.object({
  category: z.enum(premiumCategories).optional(),
  price: price.optional(),
  stripePriceId: stripePriceId.nullable().optional(),
  tier: z.enum(premiumTiers).optional(),
  isAvailable: z.boolean().optional(),
});
export type UpdatePremiumSlugBody = z.input<typeof updatePremiumSlugBody>;

/** A premium slug as the console lists it, and when it was added. */
export const premiumSlugSchema = z.object({
  id: z.string(),
  slug: z.string(),
  category: z.enum(premiumCategories),
  /** Cents. */
  price: z.number().int(),
  stripePriceId: z.string().nullable(),
  tier: z.enum(premiumTiers),
  /** For sale now: listed by an admin and owned by no one. */
  isAvailable: z.boolean(),
  /** The admin's "Available" switch: offered for sale whenever no one owns it. */
  isListed: z.boolean(),
  /** The buyer; null while no one owns it. */
  ownerId: z.string().nullable(),
  createdAt: z.string(),
});
export type PremiumSlug = z.infer<typeof premiumSlugSchema>;

export const premiumAvailabilityFilters = ['available', 'owned'] as const;

/** `GET /api/admin/premium-slugs?search=…&category=…&tier=…&availability=…&page=…`; pages from 1. */
export const adminPremiumSlugsQuery = z.object({
  search: z.string().trim().max(20, 'must be at most 20 characters').default(''),
  category: z.enum(premiumCategories).optional(),
  tier: z.enum(premiumTiers).optional(),
  /** `available`: for sale; `owned`: not for sale (bought, or withdrawn by an admin). */
  availability: z.enum(premiumAvailabilityFilters).optional(),
  page: pageNumber(10_000),
});
export type AdminPremiumSlugsQuery = z.input<typeof adminPremiumSlugsQuery>;

/** The Premium tab's four cards, over the whole catalogue whatever the filters. */
export const premiumSlugStatsSchema = z.object({
  total: z.number().int(),
  available: z.number().int(),
  owned: z.number().int(),
  /** Cents taken for premium slugs: 0 until purchases exist. */
  revenue: z.number().int(),
});
export type PremiumSlugStats = z.infer<typeof premiumSlugStatsSchema>;

export const adminPremiumSlugsPageSchema = z.object({
  slugs: z.array(premiumSlugSchema),
  page: z.number().int(),
  pageSize: z.literal(PREMIUM_SLUGS_PER_PAGE),
  /** How many match the filters. */
  total: z.number().int(),
  stats: premiumSlugStatsSchema,
});
export type AdminPremiumSlugsPage = z.infer<typeof adminPremiumSlugsPageSchema>;

/** `POST /api/admin/premium-slugs/seed`: the built-in list added; those already taken are skipped. */
export const premiumSeedResultSchema = z.object({ created: z.number().int(), skipped: z.number().int() });
export type PremiumSeedResult = z.infer<typeof premiumSeedResultSchema>;

/** `DELETE /api/admin/premium-slugs/{id}`. */
export const deletedPremiumSlugSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** `GET /api/marketplace/premium-slugs`: a slug for sale, as the marketplace shows it. */
export const marketplaceSlugSchema = premiumSlugSchema.pick({
  id: true,
  slug: true,
  category: true,
  price: true,
  tier: true,
});
export type MarketplaceSlug = z.infer<typeof marketplaceSlugSchema>;

/**
 * `GET /api/marketplace/premium-slugs/{id}`: one slug of the catalogue, as the checkout page loads it;
 * `available` is false once it is bought or withdrawn by an admin; `held` while a buyer is paying for it.
 */
export const marketplaceSlugDetailSchema = marketplaceSlugSchema.extend({
  available: z.boolean(),
  held: z.boolean(),
});
export type MarketplaceSlugDetail = z.infer<typeof marketplaceSlugDetailSchema>;

/**
 * `POST /api/marketplace/premium-slugs/{id}/payment-intent`: the buyer holds the slug until `holdExpiresAt`
 * and pays `amount` cents with the payment `paymentIntentId`. `provider` says which card form confirms it:
 * `stripe` (Stripe's Payment Element, with `publishableKey`) or `local` (the test card form, which posts to
 * `confirmUrl`).
 */
export const premiumPaymentIntentSchema = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  holdId: z.string(),
  holdExpiresAt: z.string(),
  slug: z.string(),
  /** Cents. */
  amount: z.number().int(),
  currency: z.string(),
  provider: z.enum(['stripe', 'local']),
  publishableKey: z.string().nullable(),
  /** Local provider only: where the test card form confirms the payment. */
  confirmUrl: z.string().nullable(),
});
export type PremiumPaymentIntent = z.infer<typeof premiumPaymentIntentSchema>;

/** The 403 and 409 answers of the payment-intent call. */
export const premiumPurchaseRefusalSchema = z.object({
  code: z.string(),
  message: z.string(),
  requiresPro: z.boolean().optional(),
  currentCount: z.number().int().optional(),
});

/** `GET /api/marketplace/purchases/{paymentIntentId}`: the buyer's purchase, as the success page shows it. */
export const premiumPurchaseSchema = z.object({
  slugId: z.string(),
  slug: z.string(),
  paymentIntentId: z.string(),
  /** Cents paid (and, once `refunded`, given back). */
  amount: z.number().int(),
  /**
   * `complete`: the buyer owns the slug; `refunded`: the payment was given back in full (the slug was no
   * longer theirs to have, or the refund took it back); `processing`: the provider has not said yet.
   */
  status: z.enum(['complete', 'processing', 'refunded']),
});
export type PremiumPurchase = z.infer<typeof premiumPurchaseSchema>;

/**
 * `GET /api/marketplace/my-premium-slugs` and `GET /api/user/premium-slugs`: the slugs the signed-in user
 * owns, by slug; `pricePaid` in cents.
 */
export const ownedPremiumSlugSchema = premiumSlugSchema
  .pick({ id: true, slug: true, category: true, tier: true })
  .extend({
    pricePaid: z.number().int(),
    /** Where `/s/{slug}` redirects; null until the owner sets it. */
    targetUrl: z.string().nullable(),
    /** The same as `targetUrl`, under the name the product description gives it. */
    currentUrl: z.string().nullable(),
  });
export type OwnedPremiumSlug = z.infer<typeof ownedPremiumSlugSchema>;

const premiumTarget = z.string().max(4096).nullable();

/**
 * `PUT /api/marketplace/premium-slugs/{slug}/url`: the owner's target; null or blank removes it. It is
 * `url`; `targetUrl` and `currentUrl` (the answer's names) are taken as well, one of the three.
 */
export const setPremiumSlugUrlBody = z.object({
  url: premiumTarget.optional(),
  targetUrl: premiumTarget.optional(),
  currentUrl: premiumTarget.optional(),
});
export type SetPremiumSlugUrlBody = z.infer<typeof setPremiumSlugUrlBody>;
