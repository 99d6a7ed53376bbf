import type { PremiumCategory, PremiumTier } from '@sniplink/contracts';

export interface SeedSlug {
  slug: string;
  category: PremiumCategory;
  tier: PremiumTier;
}

const entries = (category: PremiumCategory, tier: PremiumTier, slugs: string[]): SeedSlug[] =>
  slugs.map((slug) => ({ slug, category, tier }));

/**
 * The catalogue `POST /api/admin/premium-slugs/seed` adds: short, memorable codes across the seven
 * categories, none of them a reserved word. Each is priced at `premium.slug_price_cents` when seeded.
 */
export const seedCatalogue: readonly SeedSlug[] = [
  ...entries('ultra-short', 'ultra', ['x', 'q', 'z', 'go', 'ok']),
  ...entries('common-words', 'standard', ['hello', 'welcome', 'news', 'best', 'free']),
  ...entries('commerce', 'premium', ['shop', 'deals', 'sale', 'buy', 'offer']),
  ...entries('time-urgency', 'standard', ['now', 'today', 'fast', 'limited']),
  ...entries('lifestyle-status', 'premium', ['vip', 'elite', 'luxury', 'style']),
  ...entries('tech-terms', 'standard', ['dev', 'code', 'cloud', 'data']),
  ...entries('number-patterns', 'ultra', ['1', '7', '100', '2026']),
];
