import type { Int8 } from '@sniplink/platform';

/**
 * The marketplace read model's table, written by `marketplaceProjection` from the premium slug streams
 * `premiumslug-{id}`; read through `./queries`. Its migration is `…27T06-premium-slugs`.
 */
export type MarketplaceTables = {
  rm_premium_slugs: RmPremiumSlugsTable;
};

/**
 * One row per premium slug ever added, as its last event left it; a deleted slug's row stays, marked by
 * `deleted_at` (so a re-delivered add finds it and changes nothing), and no query lists it.
 */
export interface RmPremiumSlugsTable {
  slug_id: string;
  /** Lower-cased and trimmed. */
  slug: string;
  category: string;
  /** Cents. */
  price: number;
  tier: string;
  is_available: boolean;
  stripe_price_id: string | null;
  /** The buyer: null until purchases exist. */
  owner_id: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The slug stream's revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}
