import { availabilitySchema, deletedLinkSchema, linkSchema } from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { currentUserQueryKey } from '../accounts/api';
import { userAnalyticsQueryKey } from '../analytics/api';
import { getJson, sendJson } from '../api/http';

/** Query keys: the GET URL is the key's parts joined with slashes. */
export const linksQueryKey = ['/api/links'] as const;

/** The signed-in user's links, newest first. */
export const linksQueryOptions = () =>
  queryOptions({
    queryKey: linksQueryKey,
    queryFn: ({ signal }) => getJson('/api/links', z.array(linkSchema), { signal }),
  });

/**
 * Whether a custom short code is free. Asked afresh each time (someone else may take a code meanwhile),
 * and not kept once the edit dialog stops asking.
 */
export const shortCodeAvailabilityQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['/api/links/check-availability', code] as const,
    queryFn: ({ signal }) =>
      getJson(`/api/links/check-availability/${encodeURIComponent(code)}`, availabilitySchema, {
        signal,
      }),
    staleTime: 0,
    gcTime: 0,
  });

/** After any change to links: the links list, the user (their counts) and the user's analytics. */
function useLinkMutation<Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: linksQueryKey }),
        queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
        queryClient.invalidateQueries({ queryKey: userAnalyticsQueryKey }),
      ]),
  });
}

export const useCreateLink = () =>
  useLinkMutation((originalUrl: string) =>
    sendJson('POST', '/api/links', linkSchema, { originalUrl, title: null }),
  );

export interface LinkChanges {
  id: string;
  /** null clears the title. */
  title: string | null;
  originalUrl: string;
  /** Sent only when it differs from the link's current code. */
  shortCode?: string;
}

export const useUpdateLink = () =>
  useLinkMutation(({ id, ...changes }: LinkChanges) =>
    sendJson('PATCH', `/api/links/${encodeURIComponent(id)}`, linkSchema, changes),
  );

export const useDeleteLink = () =>
  useLinkMutation((id: string) =>
    sendJson('DELETE', `/api/links/${encodeURIComponent(id)}`, deletedLinkSchema),
  );

export const useDuplicateLink = () =>
  useLinkMutation((id: string) =>
    sendJson('POST', `/api/links/${encodeURIComponent(id)}/duplicate`, linkSchema),
  );
