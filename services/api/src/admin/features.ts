import * as adminUsers from '@sniplink/platform/migrations/2026-11-27T01-admin-users';
import * as adminStats from '@sniplink/platform/migrations/2026-11-27T02-admin-stats';
import * as adminConfig from '@sniplink/platform/migrations/2026-11-27T03-admin-config';
import * as announcementTables from '@sniplink/platform/migrations/2026-11-27T04-announcements';
import * as adminAudit from '@sniplink/platform/migrations/2026-11-27T05-admin-audit';
import * as adminDemoLinks from '@sniplink/platform/migrations/2026-11-28T13-admin-demo-links';
import { adminDetailedStats, adminStatsSummary, adminTrends, auditHistory } from '@sniplink/projections';
import { defineFeature } from '../feature';
import { AnnouncementService } from './announcement-service';
import { announcementAdminRoutes, announcementRoutes } from './announcements';
import { auditAdminRoutes } from './audit';
import { configAdminRoutes } from './config';
import { ConfigService } from './config-service';
import { statsAdminRoutes } from './stats';
import { userAdminRoutes } from './users';

/** Announcements: admins publish them (the Announce tab), users see theirs on the dashboard. */
export const announcementsFeature = defineFeature({
  name: 'announcements',
  build: ({ eventStore, db, progress, accounts, clock, ids }) =>
    new AnnouncementService({ eventStore, db, readModels: progress, accounts, clock, ids }),
  routes: (announcements, { sessions }) => [(api) => announcementRoutes(api, { announcements, sessions })],
  adminRoutes: (announcements) => [(admin) => announcementAdminRoutes(admin, { announcements })],
  migrations: { '2026-11-27T04-announcements': announcementTables },
});

/** The Overview's figures, read at the clock's instant; "today" begins at midnight in TIME_ZONE. */
export const statsFeature = defineFeature({
  name: 'stats',
  adminRoutes: (_services, { db, config, clock }) => {
    const { timeZone } = config;
    return [
      (admin) =>
        statsAdminRoutes(admin, {
          stats: {
            summary: (now) => adminStatsSummary(db, now),
            detailed: async (now) => ({ ...(await adminDetailedStats(db, { now, timeZone })), timeZone }),
            trends: async (now) => ({ days: await adminTrends(db, { now, timeZone }), timeZone }),
          },
          clock,
        }),
    ];
  },
  migrations: { '2026-11-27T02-admin-stats': adminStats, '2026-11-28T13-admin-demo-links': adminDemoLinks },
});

/** The Users tab: find, suspend, erase, change plans and the admin flag. */
export const usersFeature = defineFeature({
  name: 'users',
  adminRoutes: (_services, { accounts, db, clock }) => [
    (admin) => userAdminRoutes(admin, { accounts, db, clock }),
  ],
  migrations: { '2026-11-27T01-admin-users': adminUsers },
});

/** The audit history: every change made through the console or by an operator. */
export const auditFeature = defineFeature({
  name: 'audit',
  adminRoutes: (_services, { db }) => [
    (admin) => auditAdminRoutes(admin, { auditHistory: (filter) => auditHistory(db, filter) }),
  ],
  migrations: { '2026-11-27T05-admin-audit': adminAudit },
});

/** The Config tab: the known settings and the admin's own keys. */
export const configFeature = defineFeature({
  name: 'config',
  build: ({ db, eventStore, progress, settings, clock }) =>
    new ConfigService({ db, eventStore, readModels: progress, settings, clock }),
  adminRoutes: (config) => [(admin) => configAdminRoutes(admin, { config })],
  migrations: { '2026-11-27T03-admin-config': adminConfig },
});
