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
  platformStats: endpoint({ method: 'GET', path: '/api/admin/stats', answers: { 200: adminStatsSchema } }),
  overviewStats: endpoint({
    method: 'GET',
    path: '/api/admin/stats/detailed',
    answers: { 200: adminDetailedStatsSchema },
  }),
};

/** The audit history, behind the admin gate. */
export const auditAdminEndpoints = {
  auditHistory: endpoint({
    method: 'GET',
    path: '/api/admin/audit',
    querystring: auditQuery,
    answers: { 200: auditPageSchema },
  }),
};

const keyParams = z.object({ key: z.string() });

/** The console's Config tab, behind the admin gate. */
export const configAdminEndpoints = {
  listConfig: endpoint({ method: 'GET', path: '/api/admin/config', answers: { 200: configEntryListSchema } }),
  listKnownSettings: endpoint({
    method: 'GET',
    path: '/api/admin/config-settings',
    answers: { 200: knownSettingStateListSchema },
  }),
  addConfig: endpoint({
    method: 'POST',
    path: '/api/admin/config',
    body: createConfigEntryBody,
    answers: { 201: configEntrySchema },
  }),
  updateConfig: endpoint({
    method: 'PUT',
    path: '/api/admin/config/:key',
    params: keyParams,
    body: updateConfigEntryBody,
    answers: { 200: configEntrySchema },
  }),
  deleteConfig: endpoint({
    method: 'DELETE',
    path: '/api/admin/config/:key',
    params: keyParams,
    answers: { 200: deletedConfigEntrySchema },
  }),
};

const announcementParams = z.object({ id: z.string() });

/** The console's Announce tab, behind the admin gate. */
export const announcementAdminEndpoints = {
  listAnnouncements: endpoint({
    method: 'GET',
    path: '/api/admin/announcements',
    answers: { 200: z.array(announcementSchema) },
  }),
  publishAnnouncement: endpoint({
    method: 'POST',
    path: '/api/admin/announcements',
    body: createAnnouncementBody,
    answers: { 201: announcementSchema },
  }),
  toggleAnnouncement: endpoint({
    method: 'PATCH',
    path: '/api/admin/announcements/:id',
    params: announcementParams,
    body: setAnnouncementActiveBody,
    answers: { 200: announcementSchema },
  }),
};

/** The signed-in user's banners. */
export const announcementEndpoints = {
  activeAnnouncements: endpoint({
    method: 'GET',
    path: '/api/announcements',
    answers: { 200: z.array(userAnnouncementSchema) },
  }),
  dismissAnnouncement: endpoint({
    method: 'POST',
    path: '/api/announcements/:id/dismiss',
    params: announcementParams,
    answers: { 200: dismissedAnnouncementSchema },
  }),
};

const userParams = z.object({ id: z.string() });

/** The console's Users tab, behind the admin gate. */
export const userAdminEndpoints = {
  listUsers: endpoint({
    method: 'GET',
    path: '/api/admin/users',
    querystring: adminUsersQuery,
    answers: { 200: adminUsersPageSchema },
  }),
  /** A CSV download: the browser navigates to it, so the web app takes only its URL. */
  exportUsers: endpoint({
    method: 'GET',
    path: '/api/admin/users/export',
    querystring: adminUsersExportQuery,
    answers: { 200: z.string() },
  }),
  setUserAdmin: endpoint({
    method: 'PATCH',
    path: '/api/admin/users/:id/admin',
    params: userParams,
    body: setAdminBody,
    answers: { 200: adminUserSchema },
  }),
  setUserSuspended: endpoint({
    method: 'PATCH',
    path: '/api/admin/users/:id/suspend',
    params: userParams,
    body: suspendUserBody,
    answers: { 200: adminUserSchema },
  }),
};
