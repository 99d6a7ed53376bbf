import { analyticsEndpoints } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call, urlOf } from '../api/client';

const { userAnalytics, linkAnalytics, exportAnalytics } = analyticsEndpoints;

/** A query's key starts with the path of the endpoint it asks (the GET URL, for a call without parameters). */
export const userAnalyticsQueryKey = [userAnalytics.path] as const;

/** Totals over all of the user's links. */
export const userAnalyticsQueryOptions = () =>
  queryOptions({
    queryKey: userAnalyticsQueryKey,
    queryFn: ({ signal }) => call(userAnalytics, {}, { signal }),
  });

/** Click breakdowns and the last 30 days of one link. */
export const linkAnalyticsQueryOptions = (linkId: string) =>
  queryOptions({
    queryKey: [linkAnalytics.path, linkId] as const,
    queryFn: ({ signal }) => call(linkAnalytics, { params: { id: linkId } }, { signal }),
  });

/** The CSV of the user's links: a download the browser follows. */
export const analyticsExportUrl = urlOf(exportAnalytics);
