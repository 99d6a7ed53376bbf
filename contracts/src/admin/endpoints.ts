import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  announcementSchema,
  createAnnouncementBody,
  dismissedAnnouncementSchema,
  setAnnouncementActiveBody,
  userAnnouncementSchema,
} from './announcements';
import { suspendUserBody } from './api';
import { auditPageSchema, auditQuery } from './audit';
import {
  configEntryListSchema,
  configEntrySchema,
  createConfigEntryBody,
  deletedConfigEntrySchema,
  knownSettingStateListSchema,
  updateConfigEntryBody,
} from './config';
import { adminDetailedStatsSchema, adminStatsSchema, adminTrendsSchema } from './stats';
import {
  adminUserSchema,
  adminUsersExportQuery,
  adminUsersPageSchema,
  adminUsersQuery,
  setAdminBody,
} from './users';

/** The console's Overview figures, behind the admin gate. */
export const statsAdminEndpoints = {
  platformStats: endpoint('GET /api/admin/stats', { 200: adminStatsSchema }),
  overviewStats: endpoint('GET /api/admin/stats/detailed', { 200: adminDetailedStatsSchema }),
  overviewTrends: endpoint('GET /api/admin/stats/trends', { 200: adminTrendsSchema }),
};

/** The audit history, behind the admin gate. */
export const auditAdminEndpoints = {
  auditHistory: endpoint('GET /api/admin/audit', { 200: auditPageSchema }, { querystring: auditQuery }),
};

/** The console's Config tab, behind the admin gate. */
export const configAdminEndpoints = {
  listConfig: endpoint('GET /api/admin/config', { 200: configEntryListSchema }),
  listKnownSettings: endpoint('GET /api/admin/config-settings', { 200: knownSettingStateListSchema }),
  addConfig: endpoint('POST /api/admin/config', { 201: configEntrySchema }, { body: createConfigEntryBody }),
  updateConfig: endpoint(
    'PUT /api/admin/config/:key',
    { 200: configEntrySchema },
    { body: updateConfigEntryBody },
  ),
  deleteConfig: endpoint('DELETE /api/admin/config/:key', { 200: deletedConfigEntrySchema }),
};

/** The console's Announce tab, behind the admin gate. */
export const announcementAdminEndpoints = {
  listAnnouncements: endpoint('GET /api/admin/announcements', { 200: z.array(announcementSchema) }),
  publishAnnouncement: endpoint(
    'POST /api/admin/announcements',
    { 201: announcementSchema },
    { body: createAnnouncementBody },
  ),
  toggleAnnouncement: endpoint(
    'PATCH /api/admin/announcements/:id',
    { 200: announcementSchema },
    { body: setAnnouncementActiveBody },
  ),
};

/** The signed-in user's banners. */
export const announcementEndpoints = {
  activeAnnouncements: endpoint('GET /api/announcements', { 200: z.array(userAnnouncementSchema) }),
  dismissAnnouncement: endpoint('POST /api/announcements/:id/dismiss', { 200: dismissedAnnouncementSchema }),
};

/** The console's Users tab, behind the admin gate. */
export const userAdminEndpoints = {
  listUsers: endpoint(
    'GET /api/admin/users',
    { 200: adminUsersPageSchema },
    { querystring: adminUsersQuery },
  ),
  /** A CSV download: the browser navigates to it, so the web app takes only its URL. */
  exportUsers: endpoint(
    'GET /api/admin/users/export',
    { 200: z.string() },
    { querystring: adminUsersExportQuery },
  ),
  setUserAdmin: endpoint(
    'PATCH /api/admin/users/:id/admin',
    { 200: adminUserSchema },
    { body: setAdminBody },
  ),
  setUserSuspended: endpoint(
    'PATCH /api/admin/users/:id/suspend',
    { 200: adminUserSchema },
    { body: suspendUserBody },
  ),
};
