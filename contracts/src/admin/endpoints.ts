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
  updateConfigEntryBody,
} from './config';
import { adminDetailedStatsSchema, adminStatsSchema } from './stats';
import {
  adminUserSchema,
  adminUsersExportQuery,
  adminUsersPageSchema,
  adminUsersQuery,
  setAdminBody,
} from './users';

/** The console's Overview figures, behind the admin gate. */
export const statsAdminEndpoints = {
  platformStats: endpoint('GET /api/admin/stats', { answers: { 200: adminStatsSchema } }),
  overviewStats: endpoint('GET /api/admin/stats/detailed', { answers: { 200: adminDetailedStatsSchema } }),
};

/** The audit history, behind the admin gate. */
export const auditAdminEndpoints = {
  auditHistory: endpoint('GET /api/admin/audit', {
    querystring: auditQuery,
    answers: { 200: auditPageSchema },
  }),
};

/** The console's Config tab, behind the admin gate. */
export const configAdminEndpoints = {
  listConfig: endpoint('GET /api/admin/config', { answers: { 200: configEntryListSchema } }),
  addConfig: endpoint('POST /api/admin/config', {
    body: createConfigEntryBody,
    answers: { 201: configEntrySchema },
  }),
  updateConfig: endpoint('PUT /api/admin/config/:key', {
    body: updateConfigEntryBody,
    answers: { 200: configEntrySchema },
  }),
  deleteConfig: endpoint('DELETE /api/admin/config/:key', { answers: { 200: deletedConfigEntrySchema } }),
};

/** The console's Announce tab, behind the admin gate. */
export const announcementAdminEndpoints = {
  listAnnouncements: endpoint('GET /api/admin/announcements', {
    answers: { 200: z.array(announcementSchema) },
  }),
  publishAnnouncement: endpoint('POST /api/admin/announcements', {
    body: createAnnouncementBody,
    answers: { 201: announcementSchema },
  }),
  toggleAnnouncement: endpoint('PATCH /api/admin/announcements/:id', {
    body: setAnnouncementActiveBody,
    answers: { 200: announcementSchema },
  }),
};

/** The signed-in user's banners. */
export const announcementEndpoints = {
  activeAnnouncements: endpoint('GET /api/announcements', {
    answers: { 200: z.array(userAnnouncementSchema) },
  }),
  dismissAnnouncement: endpoint('POST /api/announcements/:id/dismiss', {
    answers: { 200: dismissedAnnouncementSchema },
  }),
};

/** The console's Users tab, behind the admin gate. */
export const userAdminEndpoints = {
  listUsers: endpoint('GET /api/admin/users', {
    querystring: adminUsersQuery,
    answers: { 200: adminUsersPageSchema },
  }),
  /** A CSV download: the browser navigates to it, so the web app takes only its URL. */
  exportUsers: endpoint('GET /api/admin/users/export', {
    querystring: adminUsersExportQuery,
    answers: { 200: z.string() },
  }),
  setUserAdmin: endpoint('PATCH /api/admin/users/:id/admin', {
    body: setAdminBody,
    answers: { 200: adminUserSchema },
  }),
  setUserSuspended: endpoint('PATCH /api/admin/users/:id/suspend', {
    body: suspendUserBody,
    answers: { 200: adminUserSchema },
  }),
};
