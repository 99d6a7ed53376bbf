import { type ImportJob, importEndpoints, importJobSchema, type StartImportBody } from '@sniplink/contracts';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from '../accounts/api';
import { call, urlOf } from '../api/client';
import { ApiError } from '../api/http';
import { useRefreshingMutation } from '../api/useRefreshingMutation';
import { linksQueryKey, linkTagsQueryKey } from '../links/api';

const { importFormats, listImports, uploadImport, getImport, startImport } = importEndpoints;
const IMPORTS = [listImports.path] as const;

export const importFormatsQueryOptions = () =>
  queryOptions({
    queryKey: [importFormats.path] as const,
    queryFn: ({ signal }) => call(importFormats, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The user's imports, newest first: a running one is followed every second. */
export const importsQueryOptions = () =>
  queryOptions({
    queryKey: IMPORTS,
    queryFn: ({ signal }) => call(listImports, {}, { signal }),
    refetchInterval: (query) => (query.state.data?.some((job) => job.status === 'running') ? 1_000 : false),
  });

/** One import, followed every second while it runs. */
export const importQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [getImport.path, id] as const,
    queryFn: ({ signal }) => call(getImport, { params: { id } }, { signal }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
  });

/**
 * Sends the file as the request's body (not JSON, which `call` sends): the server streams it into storage
 * and answers the import with its preview.
 */
export async function uploadExport(format: string, file: File): Promise<ImportJob> {
  const response = await fetch(urlOf(uploadImport, { query: { format, fileName: file.name } }), {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  return importJobSchema.parse(await response.json());
}

export const useStartImport = () =>
  useRefreshingMutation(
    ({ id, body }: { id: string; body: StartImportBody }) => call(startImport, { params: { id }, body }),
    [IMPORTS, [getImport.path]],
  );

/** Once an import ends, the links, their tags and the plan's counts are asked again. */
export function useRefreshAfterImport(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      [linksQueryKey, linkTagsQueryKey, currentUserQueryKey, IMPORTS].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
  };
}
