import {
  isSeoPage,
  type SeoEntry,
  type SeoSettings,
  seoPages,
  seoStream,
  type updateSeoBody,
} from '@sniplink/contracts';
import { seoSettingsDecider, unknownSeoPage, ValidationError } from '@sniplink/domain';
import { commandHandler } from '@sniplink/platform';
import { seoProjection } from '@sniplink/projections/seo/projection';
import { seoEntries } from '@sniplink/projections/seo/queries';
import type { z } from 'zod';
import type { ServiceDeps } from '../shared/service-deps';
import type { ServedSeo } from './served-seo';

export interface SeoServiceDeps extends Omit<ServiceDeps, 'ids'> {
  /** The entries this process serves in its pages: read again after a change, before the answer. */
  served: Pick<ServedSeo, 'refresh'>;
}

/** The body as the route has checked and normalised it. */
type CheckedSeoBody = z.output<typeof updateSeoBody>;

/**
 * The pages' SEO entries (the console's SEO tab): each page is a stream `seo-{page}`, the list is the
 * `seo-settings` read model. A change answers once the read model and this process's served pages have it;
 * other processes read it when they hear that the read model advanced.
 */
export class SeoService {
  private readonly pages;

  constructor(private readonly deps: SeoServiceDeps) {
    this.pages = commandHandler(deps, {
      decider: seoSettingsDecider,
      stream: seoStream,
      projection: seoProjection,
      guard: (page) => {
        if (!isSeoPage(page)) throw unknownSeoPage(page);
      },
    });
  }

  /** The entries a caller may see: every one to an admin, the public ones to anyone else. */
  async list(viewer: { admin: boolean }): Promise<SeoEntry[]> {
    const entries = await seoEntries(this.deps.db);
    return viewer.admin ? entries : entries.filter((entry) => entry.isPublic);
  }

  async update(page: string, { page: named, ...settings }: CheckedSeoBody): Promise<SeoEntry> {
    if (named !== undefined && named !== page) {
      throw new ValidationError(`page is "${named}", but the address names "${page}"`, 'page');
    }
    await this.pages.handle(page, { type: 'UpdateSeoSettings', page, settings });
    await this.deps.served.refresh();
    const stored = (await seoEntries(this.deps.db)).find((entry) => entry.page === page);
    // The read model is behind (its wait gave up): the entry as saved, which its stream holds all the same.
    return stored ?? this.asSaved(page, settings);
  }

  private asSaved(page: string, settings: SeoSettings): SeoEntry {
    if (!isSeoPage(page)) throw unknownSeoPage(page);
    return { page, path: seoPages[page], ...settings, updatedAt: this.deps.clock.now().toISOString() };
  }
}
