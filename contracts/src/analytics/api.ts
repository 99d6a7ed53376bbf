import { z } from 'zod';

const breakdown = z.record(z.string(), z.number().int());

/** GET /api/analytics/link/{id} */
export const linkAnalyticsSchema = z
  .object({
    deviceBreakdown: breakdown,
    referrerBreakdown: breakdown,
    countryBreakdown: breakdown,
    browserBreakdown: breakdown,
    osBreakdown: breakdown,
    clicksByDay: z.array(z.object({ date: z.string(), clicks: z.number().int() })),
  })
  .meta({ id: 'LinkAnalytics' });
export type LinkAnalytics = z.infer<typeof linkAnalyticsSchema>;

/** GET /api/analytics/user */
export const userAnalyticsSchema = z
  .object({ totalLinks: z.number().int(), totalClicks: z.number().int() })
  .meta({ id: 'UserAnalytics' });
export type UserAnalytics = z.infer<typeof userAnalyticsSchema>;
