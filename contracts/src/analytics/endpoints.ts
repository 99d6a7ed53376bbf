import { z } from 'zod';
import { endpoint } from '../endpoint';
import { linkAnalyticsQuery, linkAnalyticsSchema, userAnalyticsSchema } from './api';

/** The signed-in user's click analytics and the CSV of their links. */
export const analyticsEndpoints = {
  linkAnalytics: endpoint(
    'GET /api/analytics/link/:id',
    { 200: linkAnalyticsSchema },
    { params: z.object({ id: z.string() }), querystring: linkAnalyticsQuery },
  ),
  userAnalytics: endpoint('GET /api/analytics/user', { 200: userAnalyticsSchema }),
  /** A download the browser follows (a link), not a call: its answer is the CSV's text. */
  exportAnalytics: endpoint('GET /api/analytics/export', { 200: z.string() }),
};
