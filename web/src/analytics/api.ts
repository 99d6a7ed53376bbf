import { analyticsEndpoints } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call, urlOf } from '../api/client';
import { type RangeChoice, rangeQuery } from './range';

const { userAnalytics, linkAnalytics, exportAnalytics } = analyticsEndpoints;

/** A query's key starts with the path of the endpoint it asks (the GET URL, for a call without parameters). */
export const userAnalyticsQueryKey = [userAnalytics.path] as const;

/** Totals over all of the user's links. */
export const userAnalyticsQueryOptions = () =>
  queryOptions({
    queryKey: userAnalyticsQueryKey,
    queryFn: ({ signal }) => call(userAnalytics, {}, { signal }),
  });

/** One link's clicks over a range in the reader's time zone, its breakdowns and the range before it. */
export const linkAnalyticsQueryOptions = (linkId: string, range: RangeChoice) => {
  const query = rangeQuery(range);
  return queryOptions({
    queryKey: [linkAnalytics.path, linkId, query] as const,
    queryFn: ({ signal }) => call(linkAnalytics, { params: { id: linkId }, query }, { signal }),
  });
};

/** The CSV of the user's links: a download the browser follows. */
export const analyticsExportUrl = urlOf(exportAnalytics);
