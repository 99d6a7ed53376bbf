import { pageCopyEvents } from '@sniplink/contracts/content/events';
import * as pageCopyTables from '@sniplink/platform/migrations/2026-11-28T14-page-copy';
import { pageCopyProjection } from '@sniplink/projections/content/projection';
import { defineFeature } from '../feature';
import { PageCopyService } from './page-copy-service';
import { pageCopyAdminRoutes, pageCopyRoutes } from './routes';

/**
 * Page copy: the markdown of /privacy, /terms, /about, /contact and /help, drafted and published in the
 * console; the public pages show the published version.
 */
export const contentFeature = defineFeature({
  name: 'content',
  build: ({ eventStore, db, progress, clock }) =>
    new PageCopyService({ eventStore, db, readModels: progress, clock }),
  routes: (pageCopy) => [(api) => pageCopyRoutes(api, { pageCopy })],
  adminRoutes: (pageCopy) => [(admin) => pageCopyAdminRoutes(admin, { pageCopy })],
  migrations: { '2026-11-28T14-page-copy': pageCopyTables },
  events: [pageCopyEvents],
  projections: () => [pageCopyProjection],
});
