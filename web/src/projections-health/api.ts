import { projectionsAdminEndpoints } from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';

const { listProjections, rebuildProjection } = projectionsAdminEndpoints;

/** How often the panel asks again: the lag and a rebuild's progress move by the second. */
export const PROJECTIONS_REFRESH_MS = 2_000;

export const projectionsQueryOptions = () =>
  queryOptions({
    queryKey: [listProjections.path] as const,
    queryFn: ({ signal }) => call(listProjections, {}, { signal }),
    refetchInterval: PROJECTIONS_REFRESH_MS,
    staleTime: 0,
    retry: false,
  });

/** Starts a rebuild; the list asks again at once to show it. */
export function useRebuildProjection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(rebuildProjection, { params: { name } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [listProjections.path] }),
  });
}
