import { z } from 'zod';

const count = (description: string) => z.number().int().nonnegative().describe(description);

/** `GET /api/admin/stats`: the Overview's first row of cards. */
export const adminStatsSchema = z.object({
  totalUsers: count('Accounts registered and not erased (suspended ones included)'),
  activeSubscriptions: count('Paid subscriptions that make their user Pro now'),
  totalLinks: count(
    'The accounts’ links that exist: created and not deleted; demo links no account holds are not counted',
  ),
  demoLinks: count(
    'Demo links made on the landing page that no account holds yet (not counted in totalLinks)',
  ),
  totalClicks: count('Human clicks ever counted (bots are not), on links deleted since too'),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** `GET /api/admin/stats/detailed`: every field of "Detailed statistics". */
export const adminDetailedStatsSchema = adminStatsSchema.extend({
  linksCreatedToday: count(
    'Links accounts created since midnight in `timeZone` (deleted since or not; demo links not)',
  ),
  clicksToday: count('Human clicks since midnight in `timeZone`'),
  newUsersThisMonth: count('Sign-ups since the first of the month in `timeZone` (erased since or not)'),
  freeUsers: count('Accounts that are not Pro, by a subscription or by an operator’s grant'),
  paidUsers: count('Accounts with a paid subscription that makes them Pro now'),
  grantedUsers: count(
    'Accounts Pro by an operator’s grant alone: freeUsers + paidUsers + grantedUsers = totalUsers',
  ),
  monthlyRevenue: count(
    'The active subscriptions’ price per month, in cents (USD): a yearly price counts a twelfth',
  ),
  timeZone: z.string().describe('Where "today" and "this month" begin: the TIME_ZONE setting (IANA name)'),
});
export type AdminDetailedStats = z.infer<typeof adminDetailedStatsSchema>;

/** `GET /api/admin/stats/trends`: the Overview's charts, a day at a time. */
export const adminTrendsSchema = z.object({
  days: z
    .array(
      z.object({
        date: z.string().describe('The day (YYYY-MM-DD) in `timeZone`'),
        signups: count('Sign-ups that day (erased since or not)'),
        linksCreated: count('Links accounts created that day (deleted since or not; demo links not)'),
        clicks: count('Human clicks that day'),
        revenue: count('Cents taken that day: subscriptions started and premium slugs sold (not refunded)'),
      }),
    )
    .describe('The last 30 days, today included, oldest first'),
  timeZone: z.string().describe('Where a day begins: the TIME_ZONE setting (IANA name)'),
});
export type AdminTrends = z.infer<typeof adminTrendsSchema>;
