import * as analyticsTables from '@sniplink/platform/migrations/2026-11-22T06-analytics';
import { linkAnalytics, linkClicksIn, userClickTotal } from '@sniplink/projections';
import { defineFeature } from '../feature';
import { analyticsRoutes } from './routes';

/** Analytics: a link's clicks and a user's total, from the click counters. */
export const analyticsFeature = defineFeature({
  name: 'analytics',
  routes: (_services, { links, sessions, db, clock }) => [
    (api) =>
      analyticsRoutes(api, {
        links,
        sessions,
        analytics: {
          linkAnalytics: (linkId) => linkAnalytics(db, linkId),
          linkClicksIn: (linkId, window) => linkClicksIn(db, linkId, window),
          userClickTotal: (ownerId) => userClickTotal(db, ownerId),
        },
        clock,
      }),
  ],
  migrations: { '2026-11-22T06-analytics': analyticsTables },
});
