import {
  type Announcement,
  announcementAdminEndpoints,
  announcementEndpoints,
  type CreateAnnouncementBody,
} from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';

const { listAnnouncements, publishAnnouncement, toggleAnnouncement } = announcementAdminEndpoints;
const { activeAnnouncements, dismissAnnouncement } = announcementEndpoints;

/** Every announcement, newest first (the Announce tab); the GET URL is the key. Admin queries never retry. */
export const adminAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: [listAnnouncements.path] as const,
    queryFn: ({ signal }) => call(listAnnouncements, {}, { signal }),
    retry: false,
  });

/** The signed-in user's banners: the active announcements for their audience they have not dismissed. */
export const userAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: [activeAnnouncements.path] as const,
    queryFn: ({ signal }) => call(activeAnnouncements, {}, { signal }),
    retry: false,
  });

/**
 * After a change: the console's list and the admin's own banners (they see the dashboard too) are asked
 * again. The answer is the announcement as stored, so it stands in the list even if the read model was
 * still behind when the list was asked (the server waits for it, but only 2 s).
 */
function useAnnouncementChange<Variables>(mutationFn: (variables: Variables) => Promise<Announcement>) {
  const queryClient = useQueryClient();
  const { queryKey } = adminAnnouncementsQueryOptions();
  return useMutation({
    mutationFn,
    onSuccess: async (changed) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey }),
        queryClient.invalidateQueries({ queryKey: userAnnouncementsQueryOptions().queryKey }),
      ]);
      queryClient.setQueryData(queryKey, (listed) => listed && withAnnouncement(listed, changed));
    },
  });
}

/** The list with `changed` in its place, or first (newest) when the list did not have it yet. */
function withAnnouncement(listed: Announcement[], changed: Announcement): Announcement[] {
  return listed.some((announcement) => announcement.id === changed.id)
    ? listed.map((announcement) => (announcement.id === changed.id ? changed : announcement))
    : [changed, ...listed];
}

export const usePublishAnnouncement = () =>
  useAnnouncementChange((body: CreateAnnouncementBody) => call(publishAnnouncement, { body }));

export const useSetAnnouncementActive = () =>
  useAnnouncementChange(({ id, isActive }: { id: string; isActive: boolean }) =>
    call(toggleAnnouncement, { params: { id }, body: { isActive } }),
  );

/**
 * Closes a banner for good. It leaves the screen at once and comes back only if the server refuses (the
 * caller says so); the list asked again afterwards never brings back one the server has dismissed.
 */
export function useDismissAnnouncement() {
  const queryClient = useQueryClient();
  const { queryKey } = userAnnouncementsQueryOptions();
  const without = (id: string) =>
    queryClient.setQueryData(queryKey, (shown) => shown?.filter((announcement) => announcement.id !== id));
  return useMutation({
    mutationFn: (id: string) => call(dismissAnnouncement, { params: { id } }),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      without(id);
      return { before };
    },
    onSuccess: async ({ id }) => {
      await queryClient.invalidateQueries({ queryKey });
      without(id);
    },
    onError: (_error, _id, context) => {
      queryClient.setQueryData(queryKey, context?.before);
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}
