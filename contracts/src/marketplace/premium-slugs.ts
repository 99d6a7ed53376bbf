/**
 * The premium catalogue's enumerations and rules, without zod: the web app imports them from
 * `@sniplink/contracts/premium-slugs` (as it does the short-code rule), keeping zod out of its bundle.
 */

/** Premium categories as stored. */
export const premiumCategories = [
  'ultra-short',
  'common-words',
  'commerce',
  'time-urgency',
  'lifestyle-status',
  'tech-terms',
  'number-patterns',
] as const;
export type PremiumCategory = (typeof premiumCategories)[number];

export const premiumTiers = ['standard', 'premium', 'ultra'] as const;
export type PremiumTier = (typeof premiumTiers)[number];

/** The marketplace's keys for a category's icon and colour. */
export const marketplaceCategoryKeys = {
  'ultra-short': 'ultra-short',
  'common-words': 'common',
  commerce: 'commerce',
  'time-urgency': 'time',
  'lifestyle-status': 'lifestyle',
  'tech-terms': 'tech',
  'number-patterns': 'special',
} as const satisfies Record<PremiumCategory, string>;
export type MarketplaceCategoryKey = (typeof marketplaceCategoryKeys)[PremiumCategory];

/** A premium slug, once lower-cased and trimmed: 1-20 letters, digits, hyphens or underscores. */
export const PREMIUM_SLUG_RULE = '1-20 characters: letters, numbers, hyphens, and underscores only';
export const premiumSlugPattern = /^[a-z0-9_-]{1,20}$/;

/** The admin list's page size. */
export const PREMIUM_SLUGS_PER_PAGE = 25;

/** How many premium slugs one account may own (the live setting may change it). */
export const MAX_OWNED_PREMIUM_SLUGS = 3;

/** How long a buyer holds a slug while paying. */
export const PREMIUM_HOLD_MINUTES = 15;

/** Why a hold ended without a sale. */
export const premiumHoldReleaseReasons = ['expired', 'payment_failed', 'canceled'] as const;
export type PremiumHoldReleaseReason = (typeof premiumHoldReleaseReasons)[number];
