import {
  announcementSchema,
  type CreateAnnouncementBody,
  dismissedAnnouncementSchema,
  userAnnouncementSchema,
} from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson, sendJson } from '../api/http';

/** Query keys from the spec, section 7: the GET URL is the key. */
export const adminAnnouncementsQueryKey = ['/api/admin/announcements'] as const;

/** Every announcement, newest first (the Announce tab). Admin queries never retry. */
export const adminAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: adminAnnouncementsQueryKey,
    queryFn: ({ signal }) => getJson('/api/admin/announcements', z.array(announcementSchema), { signal }),
    retry: false,
  });

/** The signed-in user's banners: the active announcements for their audience they have not dismissed. */
export const userAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/announcements'] as const,
    queryFn: ({ signal }) => getJson('/api/announcements', z.array(userAnnouncementSchema), { signal }),
    retry: false,
  });

/** After a change: the console's list and the admin's own banners (they see the dashboard too). */
function useAnnouncementChange<Variables>(mutationFn: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminAnnouncementsQueryKey }),
        queryClient.invalidateQueries({ queryKey: userAnnouncementsQueryOptions().queryKey }),
      ]),
  });
}

export const usePublishAnnouncement = () =>
  useAnnouncementChange((body: CreateAnnouncementBody) =>
    sendJson('POST', '/api/admin/announcements', announcementSchema, body),
  );

export const useSetAnnouncementActive = () =>
  useAnnouncementChange(({ id, isActive }: { id: string; isActive: boolean }) =>
    sendJson('PATCH', `/api/admin/announcements/${encodeURIComponent(id)}`, announcementSchema, { isActive }),
  );

/**
 * Closes a banner for good. It leaves the screen at once and comes back only if the server refuses
 * (the caller says so); afterwards the list is asked again.
 */
export function useDismissAnnouncement() {
  const queryClient = useQueryClient();
  const { queryKey } = userAnnouncementsQueryOptions();
  return useMutation({
    mutationFn: (id: string) =>
      sendJson('POST', `/api/announcements/${encodeURIComponent(id)}/dismiss`, dismissedAnnouncementSchema),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, (shown) => shown?.filter((announcement) => announcement.id !== id));
      return { before };
    },
    onError: (_error, _id, context) => queryClient.setQueryData(queryKey, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
