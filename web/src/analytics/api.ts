import { linkAnalyticsSchema, userAnalyticsSchema } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../api/http';

/** Query keys: the GET URL is the key's parts joined with slashes. */
export const userAnalyticsQueryKey = ['/api/analytics/user'] as const;

/** Totals over all of the user's links. */
export const userAnalyticsQueryOptions = () =>
  queryOptions({
    queryKey: userAnalyticsQueryKey,
    queryFn: ({ signal }) => getJson('/api/analytics/user', userAnalyticsSchema, { signal }),
  });

/** Click breakdowns and the last 30 days of one link. */
export const linkAnalyticsQueryOptions = (linkId: string) =>
  queryOptions({
    queryKey: ['/api/analytics/link', linkId] as const,
    queryFn: ({ signal }) =>
      getJson(`/api/analytics/link/${encodeURIComponent(linkId)}`, linkAnalyticsSchema, { signal }),
  });
