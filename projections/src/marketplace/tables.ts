import type { Int8 } from '@sniplink/platform';
import type { Generated } from 'kysely';

/**
 * The marketplace read model's tables, written by `marketplaceProjection` from the premium slug streams
 * `premiumslug-{id}`; read through `./queries`. Their migrations are `…27T06-premium-slugs`,
 * `…27T08-premium-purchases` and `…28T12-premium-payments`.
 */
export type MarketplaceTables = {
  rm_premium_slugs: RmPremiumSlugsTable;
  rm_premium_payments: RmPremiumPaymentsTable;
};

/** What became of a premium slug's payment; `refunded` is final. */
export type PremiumPaymentStatus = 'complete' | 'refunded';

/** One row per payment the provider took for a premium slug (a payment not yet taken has none). */
export interface RmPremiumPaymentsTable {
  payment_id: string;
  slug_id: string;
  slug: string;
  buyer_id: string;
  /** Cents paid. */
  amount: number;
  status: PremiumPaymentStatus;
  updated_at: Date;
}

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
  /** The buyer, once bought. */
  owner_id: string | null;
  /** While a buyer holds it: until when (an expired hold no longer hides it from the marketplace). */
  held_until: Date | null;
  /** The payment it was bought with, and what that took (cents; 0 until bought). */
  payment_id: string | null;
  paid_cents: Generated<number>;
  /** Where `/s/{slug}` redirects, as the owner set it (migration `…27T09-premium-targets`). */
  target_url: Generated<string | null>;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The slug stream's revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}
