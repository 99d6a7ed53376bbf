import type {
  AdminPremiumSlugsPage,
  MarketplaceSlug,
  PremiumCategory,
  PremiumSeedResult,
  PremiumSlug,
  PremiumTier,
} from '@sniplink/contracts';
import { DomainError, NotFoundError, normalisePremiumSlug, type PremiumSlugFields } from '@sniplink/domain';
import type { LogPosition } from '@sniplink/platform';
import {
  adminPremiumSlugs,
  availablePremiumSlugs,
  marketplaceProjection,
  type PremiumSlugFilter,
  premiumSlugById,
} from '@sniplink/projections';
import { z } from 'zod';
import { type CodeModeration, isModerationRefusal, shortCodeClaims } from '../links/short-code-claims';
import type { ServiceDeps } from '../shared/service-deps';
import type { Settings } from '../shared/settings';
import { type PremiumSlugs, premiumSlugs } from './premium-streams';
import { seedCatalogue } from './seed-catalogue';

export interface PremiumSlugServiceDeps extends ServiceDeps {
  /** `premium.slug_price_cents`: a new slug's price when none is given. */
  settings: Settings;
  /** The admin's lists: a slug may contain no prohibited word and no protected brand. */
  moderation: CodeModeration;
}

/** What an admin adds, as the API has checked and defaulted it (the price may still default). */
export interface NewPremiumSlug {
  slug: string;
  category: PremiumCategory;
  tier: PremiumTier;
  isAvailable: boolean;
  price?: number;
  stripePriceId?: string | null;
}

const notFound = () => new NotFoundError('No such premium slug');
const isSlugId = (id: string) => z.uuid().safeParse(id).success;

/**
 * The premium catalogue: a slug's own stream `premiumslug-{id}` holds its fields; its code is
 * claimed in the short-code namespace first (`shortcode-{slug}`, the stream links claim too), so a slug and
 * a link never share a code. A slug whose add fails after the claim releases it; deleting releases it last.
 */
export class PremiumSlugService {
  private readonly slugs: PremiumSlugs;
  /** The short-code namespace the slug's code is reserved in. */
  private readonly codes;

  constructor(private readonly deps: PremiumSlugServiceDeps) {
    this.slugs = premiumSlugs(deps);
    this.codes = shortCodeClaims(deps);
  }

  list(filter: PremiumSlugFilter): Promise<AdminPremiumSlugsPage> {
    return adminPremiumSlugs(this.deps.db, filter);
  }

  forSale(): Promise<MarketplaceSlug[]> {
    return availablePremiumSlugs(this.deps.db, this.deps.clock.now());
  }

  async add(input: NewPremiumSlug): Promise<PremiumSlug> {
    const { position, slugId } = await this.addToCatalogue(input);
    return this.afterChange(slugId, position);
  }

  async edit(slugId: string, changes: Partial<PremiumSlugFields>): Promise<PremiumSlug> {
    if (!isSlugId(slugId)) throw notFound();
    await this.slugs.handle(slugId, { type: 'EditPremiumSlug', slugId, changes });
    return this.afterChange(slugId, null);
  }

  /** Deletes a slug nobody owns (an owned one is a 409), then frees its code. */
  async remove(slugId: string): Promise<void> {
    if (!isSlugId(slugId)) throw notFound();
    // Waited for below, once its code is free again.
    const deleted = await this.slugs.handle(slugId, { type: 'DeletePremiumSlug', slugId }, { wait: false });
    const slug = deleted.state.slug;
    if (slug) await this.releaseCode(slug, slugId, 'deleted');
    if (deleted.position) await this.deps.readModels.waitFor(marketplaceProjection, deleted.position);
  }

  /**
   * Adds the built-in catalogue, one slug after another: a code already in the catalogue or held by a
   * link is skipped, so a second seed creates nothing; so is one the admin's lists refuse (a built-in
   * slug that is also a listed brand stays out of the catalogue).
   */
  async seed(): Promise<PremiumSeedResult> {
    let created = 0;
    let skipped = 0;
    let last: LogPosition | null = null;
    for (const entry of seedCatalogue) {
      try {
        const added = await this.addToCatalogue({ ...entry, isAvailable: true });
        last = added.position ?? last;
        created++;
      } catch (error) {
        const skippable =
          error instanceof DomainError && (error.status === 409 || isModerationRefusal(error));
        if (!skippable) throw error;
        skipped++;
      }
    }
    if (last) await this.deps.readModels.waitFor(marketplaceProjection, last);
    return { created, skipped };
  }

  private async addToCatalogue(
    input: NewPremiumSlug,
  ): Promise<{ slugId: string; position: LogPosition | null }> {
    const slug = normalisePremiumSlug(input.slug);
    const fields: PremiumSlugFields = {
      price: input.price ?? this.deps.settings.current().premiumSlugPriceCents,
      category: input.category,
      tier: input.tier,
      isAvailable: input.isAvailable,
      stripePriceId: input.stripePriceId ?? null,
    };
    const slugId = this.deps.ids.newId();
    await this.codes.handle(slug, { type: 'ReserveForPremiumSlug', code: slug, slugId });
    try {
      // Waited for by the caller: once per slug added, once per seed.
      const { position } = await this.slugs.handle(
        slugId,
        { type: 'AddPremiumSlug', slugId, slug, fields },
        { wait: false },
      );
      return { slugId, position };
    } catch (error) {
      await this.releaseCode(slug, slugId, 'abandoned');
      throw error;
    }
  }

  private async releaseCode(slug: string, slugId: string, reason: 'deleted' | 'abandoned'): Promise<void> {
    await this.codes.handle(slug, { type: 'ReleasePremiumSlug', slugId, reason });
  }

  /** The slug once the read model shows the change (the list refreshes next); `position`: still to wait for. */
  private async afterChange(slugId: string, position: LogPosition | null): Promise<PremiumSlug> {
    if (position) await this.deps.readModels.waitFor(marketplaceProjection, position);
    return (await premiumSlugById(this.deps.db, slugId)) ?? this.fromStream(slugId);
  }

  /** The slug as its stream has it, when the read model has not caught up in time. */
  private async fromStream(slugId: string): Promise<PremiumSlug> {
    const state = await this.slugs.load(slugId);
    if (state.status !== 'listed' || !state.slug || !state.fields) throw notFound();
    const createdAt = this.deps.clock.now().toISOString();
    const { isAvailable, ...fields } = state.fields;
    return {
      id: slugId,
      slug: state.slug,
      ...fields,
      isAvailable: isAvailable && state.ownerId === null,
      isListed: isAvailable,
      ownerId: state.ownerId,
      createdAt,
    };
  }
}
