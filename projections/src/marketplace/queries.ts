import {
  type AdminPremiumSlugsPage,
  type MarketplaceSlug,
  type OwnedPremiumSlug,
  PREMIUM_SLUGS_PER_PAGE,
  type PremiumCategory,
  type PremiumSlug,
  type PremiumSlugStats,
  type PremiumTier,
} from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import { type Kysely, type Selectable, sql } from 'kysely';
import { withReadModels } from '../read-models';
import type { PremiumPaymentStatus, RmPremiumSlugsTable } from './tables';

export interface PremiumSlugFilter {
  search: string;
  category?: PremiumCategory;
  tier?: PremiumTier;
  /** `available`: for sale; `owned`: not for sale. */
  availability?: 'available' | 'owned';
  page: number;
}

/** What every answer about a slug says of it: its id, the slug, its category and its tier. */
const slugNamed = (row: Pick<Selectable<RmPremiumSlugsTable>, 'slug_id' | 'slug' | 'category' | 'tier'>) => ({
  id: row.slug_id,
  slug: row.slug,
  category: row.category as PremiumCategory,
  tier: row.tier as PremiumTier,
});

const toPremiumSlug = (row: Selectable<RmPremiumSlugsTable>): PremiumSlug => ({
  ...slugNamed(row),
  price: row.price,
  stripePriceId: row.stripe_price_id,
  // A bought slug is not for sale, whatever its listing says.
  isAvailable: row.is_available && row.owner_id === null,
  isListed: row.is_available,
  ownerId: row.owner_id,
  createdAt: row.created_at.toISOString(),
});

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The Premium tab's page: the slugs matching every filter given, by slug, 25 a page; and the four cards. */
export async function adminPremiumSlugs(
  db: Kysely<Database>,
  filter: PremiumSlugFilter,
): Promise<AdminPremiumSlugsPage> {
  const rm = withReadModels(db);
  let matching = rm.selectFrom('rm_premium_slugs').where('deleted_at', 'is', null);
  const search = filter.search.trim().toLowerCase();
  if (search !== '') matching = matching.where('slug', 'like', likePattern(search));
  if (filter.category) matching = matching.where('category', '=', filter.category);
  if (filter.tier) matching = matching.where('tier', '=', filter.tier);
  if (filter.availability === 'available')
    matching = matching.where('is_available', '=', true).where('owner_id', 'is', null);
  if (filter.availability === 'owned')
    matching = matching.where((eb) =>
      eb.or([eb('is_available', '=', false), eb('owner_id', 'is not', null)]),
    );
  const [rows, counted, stats] = await Promise.all([
    matching
      .selectAll()
      .orderBy('slug')
      .limit(PREMIUM_SLUGS_PER_PAGE)
      .offset((filter.page - 1) * PREMIUM_SLUGS_PER_PAGE)
      .execute(),
    matching.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
    premiumSlugStats(db),
  ]);
  return {
    slugs: rows.map(toPremiumSlug),
    page: filter.page,
    pageSize: PREMIUM_SLUGS_PER_PAGE,
    total: Number(counted.count),
    stats,
  };
}

/** The four cards: every slug, those for sale (listed and not bought), those bought, and what sales took. */
export async function premiumSlugStats(db: Kysely<Database>): Promise<PremiumSlugStats> {
  const row = await withReadModels(db)
    .selectFrom('rm_premium_slugs')
    .select([
      sql<string>`count(*)`.as('total'),
      sql<string>`count(*) FILTER (WHERE is_available AND owner_id IS NULL)`.as('available'),
      sql<string>`count(*) FILTER (WHERE owner_id IS NOT NULL)`.as('owned'),
      sql<string>`coalesce(sum(paid_cents), 0)`.as('revenue'),
    ])
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    available: Number(row.available),
    owned: Number(row.owned),
    revenue: Number(row.revenue),
  };
}

/** A slug's catalogue row; none once deleted. */
const catalogueRow = (db: Kysely<Database>, slugId: string) =>
  withReadModels(db)
    .selectFrom('rm_premium_slugs')
    .selectAll()
    .where('slug_id', '=', slugId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export async function premiumSlugById(db: Kysely<Database>, slugId: string): Promise<PremiumSlug | null> {
  const row = await catalogueRow(db, slugId);
  return row ? toPremiumSlug(row) : null;
}

/**
 * The slugs for sale at `now`, by slug (the marketplace filters them in the browser: the catalogue is
 * small): listed, not bought, and not held by a buyer (a hold past its time no longer counts).
 */
export async function availablePremiumSlugs(db: Kysely<Database>, now: Date): Promise<MarketplaceSlug[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_premium_slugs')
    .select(['slug_id', 'slug', 'category', 'price', 'tier'])
    .where('is_available', '=', true)
    .where('owner_id', 'is', null)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '<=', now)]))
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .execute();
  return rows.map((row) => ({ ...slugNamed(row), price: row.price }));
}

/** A slug's catalogue row with its hold, for the checkout page (deleted: null). */
export async function premiumSlugForCheckout(
  db: Kysely<Database>,
  slugId: string,
): Promise<(PremiumSlug & { heldUntil: Date | null }) | null> {
  const row = await catalogueRow(db, slugId);
  return row ? { ...toPremiumSlug(row), heldUntil: row.held_until } : null;
}

/** The purchase `paymentId` made by `buyerId`, as the success page shows it; null when none (yet). */
export async function premiumPurchaseOf(
  db: Kysely<Database>,
  buyerId: string,
  paymentId: string,
): Promise<{ slugId: string; slug: string; amount: number; status: PremiumPaymentStatus } | null> {
  const row = await withReadModels(db)
    .selectFrom('rm_premium_payments')
    .select(['slug_id', 'slug', 'amount', 'status'])
    .where('payment_id', '=', paymentId)
    .where('buyer_id', '=', buyerId)
    .executeTakeFirst();
  return row ? { slugId: row.slug_id, slug: row.slug, amount: row.amount, status: row.status } : null;
}

/** The slugs `ownerId` owns, by slug (a deleted one cannot be owned: an owned slug cannot be deleted). */
export async function ownedPremiumSlugs(db: Kysely<Database>, ownerId: string): Promise<OwnedPremiumSlug[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_premium_slugs')
    .select(['slug_id', 'slug', 'category', 'tier', 'paid_cents', 'target_url'])
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .execute();
  return rows.map((row) => ({
    ...slugNamed(row),
    pricePaid: row.paid_cents,
    targetUrl: row.target_url,
    currentUrl: row.target_url,
  }));
}

/**
 * The catalogue slug holding a code (lower-cased), for the redirect's cache miss once no link has it:
 * its id and, when owned and set, its target and whether its owner is suspended. One indexed row
 * (`slug`), its owner's by primary key; deleted slugs are none.
 */
export function premiumSlugByCode(
  db: Kysely<Database>,
  codeLower: string,
): Promise<
  | { slug_id: string; owner_id: string | null; target_url: string | null; owner_suspended: boolean }
  | undefined
> {
  return withReadModels(db)
    .selectFrom('rm_premium_slugs')
    .leftJoin('rm_link_owners', (join) =>
      join.on(sql<boolean>`rm_link_owners.owner_id = rm_premium_slugs.owner_id::text`),
    )
    .select(['slug_id', 'rm_premium_slugs.owner_id', 'target_url'])
    .select(sql<boolean>`coalesce(rm_link_owners.suspended, false)`.as('owner_suspended'))
    .where('slug', '=', codeLower)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
