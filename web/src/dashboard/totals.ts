import { useSuspenseQuery } from '@tanstack/react-query';
import { userAnalyticsQueryOptions } from '../analytics/api';

/** The user's totals over all links, as the greeting and the figures show them (loaded with the page). */
export function useDashboardTotals(): { totalLinks: number; totalClicks: number } {
  const { data } = useSuspenseQuery(userAnalyticsQueryOptions());
  return { totalLinks: data.totalLinks, totalClicks: data.totalClicks };
}
