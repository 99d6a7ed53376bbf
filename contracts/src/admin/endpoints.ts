import { z } from 'zod';
import { endpoint } from '../endpoint';
import { auditPageSchema, auditQuery } from './audit';
import {
  configEntryListSchema,
  configEntrySchema,
  createConfigEntryBody,
  deletedConfigEntrySchema,
  updateConfigEntryBody,
} from './config';
import { adminDetailedStatsSchema, adminStatsSchema } from './stats';

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
