import type { AdminDocBody, AdminDocSection } from '@sniplink/contracts/admin-docs/api';
import { adminDocEndpoints } from '@sniplink/contracts/admin-docs/endpoints';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { ApiError } from '../api/http';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const { listAdminDocs, addAdminDoc, updateAdminDoc, deleteAdminDoc, seedAdminDocs } = adminDocEndpoints;

/** Query key: the GET URL, then the section (none: every section's docs). */
const adminDocsQueryKey = [listAdminDocs.path] as const;

/** The docs, or one section's, by sortOrder. Admin queries never retry. */
export const adminDocsQueryOptions = (section?: AdminDocSection) =>
  queryOptions({
    queryKey: [...adminDocsQueryKey, { section }],
    queryFn: ({ signal }) => call(listAdminDocs, { query: { section } }, { signal }),
    retry: false,
  });

/** After any change: every section's list again. */
const useDocsMutation = <Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) =>
  useRefreshingMutation(mutationFn, [adminDocsQueryKey]);

export const useAddAdminDoc = () => useDocsMutation((body: AdminDocBody) => call(addAdminDoc, { body }));

export const useUpdateAdminDoc = () =>
  useDocsMutation(({ id, ...body }: AdminDocBody & { id: string }) =>
    call(updateAdminDoc, { params: { id }, body }),
  );

export const useDeleteAdminDoc = () =>
  useDocsMutation((id: string) => call(deleteAdminDoc, { params: { id } }));

export const useSeedAdminDocs = () => useDocsMutation(() => call(seedAdminDocs));

/** The server's own words when it gave some (a 400 names the field), else the status line. */
export const problemOf = (error: unknown): string =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';
