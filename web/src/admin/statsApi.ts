import { adminDetailedStatsSchema } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../api/http';

/** Query key: the GET URL. */
export const adminDetailedStatsQueryKey = ['/api/admin/stats/detailed'] as const;

/**
 * Every figure of the Overview. Admin queries never retry; the figures move all the time, so they are
 * asked for again each time the tab opens (and by its Refresh button).
 */
export const adminDetailedStatsQueryOptions = () =>
  queryOptions({
    queryKey: adminDetailedStatsQueryKey,
    queryFn: ({ signal }) => getJson('/api/admin/stats/detailed', adminDetailedStatsSchema, { signal }),
    retry: false,
    staleTime: 0,
  });
