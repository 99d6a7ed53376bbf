import { endpoint } from '../endpoint';
import { auditPageSchema, auditQuery } from './audit';
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
