import { seoEvents } from '@sniplink/contracts';
import * as seoSettings from '@sniplink/platform/migrations/2026-11-28T14-seo-settings';
import { isAdminUser } from '@sniplink/projections';
import { seoProjection } from '@sniplink/projections/seo/projection';
import { defineFeature } from '../feature';
import { seoAdminRoutes, seoRoutes } from './routes';
import { SeoService } from './seo-service';
import { ServedSeo } from './served-seo';

/**
 * SEO: an admin sets each public page's title, description, keywords and share card (the console's SEO
 * tab); the served pages carry them in their HTML, the web app in its titles; robots.txt and the sitemap.
 */
export const seoFeature = defineFeature({
  name: 'seo',
  build: ({ db, eventStore, progress, clock, log }) => {
    const served = new ServedSeo({ db, progress, log });
    served.follow();
    return { served, seo: new SeoService({ db, eventStore, readModels: progress, clock, served }) };
  },
  routes: ({ seo, served }, { sessions, db, config }) => [
    (api) =>
      seoRoutes(api, {
        seo,
        served,
        sessions,
        isAdmin: (userId) => isAdminUser(db, userId),
        publicUrl: config.canonicalUrl?.replace(/\/+$/, ''),
      }),
  ],
  adminRoutes: ({ seo }) => [(admin) => seoAdminRoutes(admin, { seo })],
  pageSeo: ({ served }) => served,
  migrations: { '2026-11-28T14-seo-settings': seoSettings },
  events: [seoEvents],
  projections: () => [seoProjection],
});
