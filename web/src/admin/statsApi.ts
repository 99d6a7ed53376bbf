import { statsAdminEndpoints } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';

const { overviewStats } = statsAdminEndpoints;

/** Query key: the GET URL. */
export const adminDetailedStatsQueryKey = [overviewStats.path] as const;

/**
 * Every figure of the Overview. Admin queries never retry; the figures move all the time, so they are
 * asked for again each time the tab opens (and by its Refresh button).
 */
export const adminDetailedStatsQueryOptions = () =>
  queryOptions({
    queryKey: adminDetailedStatsQueryKey,
    queryFn: ({ signal }) => call(overviewStats, {}, { signal }),
    retry: false,
    staleTime: 0,
  });

const { overviewTrends } = statsAdminEndpoints;

/** The Overview's charts: the last 30 days. Asked for each time the tab opens, as the figures are. */
export const adminTrendsQueryOptions = () =>
  queryOptions({
    queryKey: [overviewTrends.path] as const,
    queryFn: ({ signal }) => call(overviewTrends, {}, { signal }),
    retry: false,
    staleTime: 0,
  });
