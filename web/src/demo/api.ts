import { demoLinkSchema } from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { currentUserQueryKey } from '../accounts/api';
import { userAnalyticsQueryKey } from '../analytics/api';
import { getJson, sendJson } from '../api/http';
import { linksQueryKey } from '../links/api';

/** Query keys: the GET URL is the key's parts joined with slashes. */
export const demoLinksQueryKey = ['/api/demo/links'] as const;

/** This visitor's demo links (their `visitor` cookie), cached 5 minutes. */
export const demoLinksQueryOptions = () =>
  queryOptions({
    queryKey: demoLinksQueryKey,
    queryFn: ({ signal }) => getJson('/api/demo/links', z.array(demoLinkSchema), { signal }),
    staleTime: 5 * 60_000,
  });

/** POST /api/demo/shorten; the demo link list is asked again after each try. */
export function useShortenDemoUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => sendJson('POST', '/api/demo/shorten', demoLinkSchema, { url }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: demoLinksQueryKey }),
  });
}

/**
 * A demo link. Signed in, the server makes an ordinary link under the plan, so the link queries are
 * refreshed too, and the demo list.
 */
export const useShortenDemoLink = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => sendJson('POST', '/api/demo/shorten', demoLinkSchema, { url }),
    onSuccess: () =>
      Promise.all(
        [demoLinksQueryKey, linksQueryKey, currentUserQueryKey, userAnalyticsQueryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
};
