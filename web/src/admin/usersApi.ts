import { type AdminUser, userAdminEndpoints } from '@sniplink/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call, urlOf } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';
import { adminUserApiKeysQueryOptions } from '../api-keys/api';
import { auditHistoryQueryOptions, auditQueryKey } from './auditApi';
import type { AdminSearch } from './places';

const { listUsers, exportUsers, setUserAdmin, setUserSuspended } = userAdminEndpoints;

export const adminUsersQueryKey = [listUsers.path] as const;

/** An empty search is left out of the URL: the server takes its absence as every user. */
const searched = (search: string) => (search ? search : undefined);

/** One page of the search (20 users). Admin queries never retry. */
export const adminUsersQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: [...adminUsersQueryKey, search, page],
    queryFn: ({ signal }) => call(listUsers, { query: { search: searched(search), page } }, { signal }),
    retry: false,
  });

/**
 * The Users tab at its place: the page of the search, and the history of the user whose View dialog is
 * open. The dialog opens only for a user on that page, so another id in the address loads nothing more.
 */
export async function loadUsersTab(queryClient: QueryClient, { q, page, user }: AdminSearch): Promise<void> {
  const found = await queryClient.ensureQueryData(adminUsersQueryOptions(q ?? '', page ?? 1));
  if (user && found.users.some((one) => one.id === user)) {
    await Promise.all([
      queryClient.ensureInfiniteQueryData(auditHistoryQueryOptions({ target: `user-${user}` })),
      queryClient.ensureQueryData(adminUserApiKeysQueryOptions(user)),
    ]);
  }
}

/** The CSV of every user the search matches (a download: a navigation that sends the cookie). */
export const adminUsersExportUrl = (search: string) =>
  urlOf(exportUsers, { query: { search: searched(search) } });

/** What a change to a user asks again: the list, and the user's history in the open dialog (the change is an entry of it). */
const userChangeRefreshes = [adminUsersQueryKey, auditQueryKey];

/** Grants or removes the admin flag. */
export const useSetAdmin = () =>
  useRefreshingMutation(
    ({ id, isAdmin }: { id: string; isAdmin: boolean }): Promise<AdminUser> =>
      call(setUserAdmin, { params: { id }, body: { isAdmin } }),
    userChangeRefreshes,
  );

/** Suspends or unsuspends. */
export const useSuspendUser = () =>
  useRefreshingMutation(
    ({ id, suspended }: { id: string; suspended: boolean }): Promise<AdminUser> =>
      call(setUserSuspended, { params: { id }, body: { suspended } }),
    userChangeRefreshes,
  );
