import {
  type AdminUser,
  adminUserSchema,
  adminUsersPageSchema,
  setAdminBody,
  suspendUserBody,
} from '@sniplink/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../api/http';
import { auditQueryKey } from './auditApi';

export const adminUsersQueryKey = ['/api/admin/users'] as const;

const withSearch = (path: string, search: string, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams({ ...(search ? { search } : {}), ...extra });
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

/** GET /api/admin/users: one page of the search (20 users). Admin queries never retry. */
export const adminUsersQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: [...adminUsersQueryKey, search, page],
    queryFn: ({ signal }) =>
      getJson(withSearch('/api/admin/users', search, { page: String(page) }), adminUsersPageSchema, {
        signal,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** The CSV of every user the search matches (a download: a navigation that sends the cookie). */
export const adminUsersExportUrl = (search: string) => withSearch('/api/admin/users/export', search);

/** PATCH /api/admin/users/{id}/admin, then the list again. */
export function useSetAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isAdmin }: { id: string; isAdmin: boolean }): Promise<AdminUser> =>
      sendJson('PATCH', `/api/admin/users/${id}/admin`, adminUserSchema, setAdminBody.parse({ isAdmin })),
    // The list, and the user's history in the open dialog (the change is an entry of it).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ]),
  });
}

/** PATCH /api/admin/users/{id}/suspend, then the list again. */
export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, suspended }: { id: string; suspended: boolean }): Promise<AdminUser> =>
      sendJson(
        'PATCH',
        `/api/admin/users/${id}/suspend`,
        adminUserSchema,
        suspendUserBody.parse({ suspended }),
      ),
    // The list, and the user's history in the open dialog (the change is an entry of it).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ]),
  });
}
