import { projectionEvents } from '@sniplink/contracts';
import { defineFeature } from '../feature';
import { ProjectionsService } from './projections-service';
import { projectionsAdminRoutes } from './routes';

/**
 * Projection health and blue/green rebuilds for operators: the console's view of every read model (position,
 * lag, state, holder, last error) and the rebuild that replaces a read model's tables without downtime.
 */
export const projectionsAdminFeature = defineFeature({
  name: 'projections-admin',
  build: ({ db, eventStore, clock, projections, rebuilds }) => ({
    projections: new ProjectionsService({ db, eventStore, clock, projections, rebuilds }),
  }),
  adminRoutes: ({ projections }) => [(admin) => projectionsAdminRoutes(admin, { projections })],
  events: [projectionEvents],
});
