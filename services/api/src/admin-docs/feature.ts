import { adminDocEvents } from '@sniplink/contracts/admin-docs/events';
import * as adminDocsTables from '@sniplink/platform/migrations/2026-11-28T14-admin-docs';
import { adminDocsProjection } from '@sniplink/projections/admin-docs/projection';
import { defineFeature } from '../feature';
import { AdminDocService } from './admin-doc-service';
import { adminDocRoutes } from './routes';

/** The Docs tab: internal documentation for admins, by section of the console, with a starter set. */
export const adminDocsFeature = defineFeature({
  name: 'admin-docs',
  build: ({ eventStore, db, progress, clock, ids }) =>
    new AdminDocService({ eventStore, db, readModels: progress, clock, ids }),
  adminRoutes: (docs) => [(admin) => adminDocRoutes(admin, { docs })],
  migrations: { '2026-11-28T14-admin-docs': adminDocsTables },
  events: [adminDocEvents],
  projections: () => [adminDocsProjection],
});
