import { type AdminUser, userAdminEndpoints } from '@sniplink/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call, urlOf } from '../api/client';
import { auditQueryKey } from './auditApi';

const { listUsers, exportUsers, setUserAdmin, setUserSuspended } = userAdminEndpoints;

export const adminUsersQueryKey = [listUsers.path] as const;

/** An empty search is left out of the URL: the server takes its absence as every user. */
const searched = (search: string) => (search ? search : undefined);

/** One page of the search (20 users). Admin queries never retry. */
export const adminUsersQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: [...adminUsersQueryKey, search, page],
    queryFn: ({ signal }) => call(listUsers, { query: { search: searched(search), page } }, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** The CSV of every user the search matches (a download: a navigation that sends the cookie). */
export const adminUsersExportUrl = (search: string) =>
  urlOf(exportUsers, { query: { search: searched(search) } });

/** Grants or removes the admin flag, then the list again. */
export function useSetAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isAdmin }: { id: string; isAdmin: boolean }): Promise<AdminUser> =>
      call(setUserAdmin, { params: { id }, body: { isAdmin } }),
    // The list, and the user's history in the open dialog (the change is an entry of it).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ]),
  });
}

/** Suspends or unsuspends, then the list again. */
export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, suspended }: { id: string; suspended: boolean }): Promise<AdminUser> =>
      call(setUserSuspended, { params: { id }, body: { suspended } }),
    // The list, and the user's history in the open dialog (the change is an entry of it).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ]),
  });
}
