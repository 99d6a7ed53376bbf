import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A change whose success asks again every query whose key starts with one of `refreshes`. It settles
 * only once they have answered, so that whatever shows next (a toast, a closed dialog, another page)
 * sees the changed state.
 */
export function useRefreshingMutation<Variables = void, Answer = unknown>(
  mutationFn: (variables: Variables) => Promise<Answer>,
  refreshes: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(refreshes.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
