import { demoEndpoints } from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from '../accounts/api';
import { userAnalyticsQueryKey } from '../analytics/api';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';
import { linksQueryKey } from '../links/api';

/** A query's key starts with the path of the endpoint it asks (the GET URL, for a call without parameters). */
export const demoLinksQueryKey = [demoEndpoints.demoLinks.path] as const;

/** This visitor's demo links (their `visitor` cookie), cached 5 minutes. */
export const demoLinksQueryOptions = () =>
  queryOptions({
    queryKey: demoLinksQueryKey,
    queryFn: ({ signal }) => call(demoEndpoints.demoLinks, {}, { signal }),
    staleTime: 5 * 60_000,
  });

/** POST /api/demo/shorten; the demo link list is asked again after each try. */
export function useShortenDemoUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => call(demoEndpoints.demoShorten, { body: { url } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: demoLinksQueryKey }),
  });
}

/**
 * A demo link. Signed in, the server makes an ordinary link under the plan, so the link queries are
 * refreshed too, and the demo list.
 */
export const useShortenDemoLink = () =>
  useRefreshingMutation(
    (url: string) => call(demoEndpoints.demoShorten, { body: { url } }),
    [demoLinksQueryKey, linksQueryKey, currentUserQueryKey, userAnalyticsQueryKey],
  );
