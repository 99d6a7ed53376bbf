import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** The element holding what the server's render read, beside the root it rendered into. */
const stateElementId = 'server-state';

/**
 * Each answer the server's render read: its query's key, the data and when it was read. The API's
 * answers are JSON, so JSON carries them whole. (TanStack Query's own `dehydrate` format would bring
 * its `hydrate` into the landing page's first chunk, which the JavaScript budget has no room for.)
 */
type ServerState = [queryKey: QueryKey, data: unknown, updatedAt: number][];

/**
 * The script element carrying the answers the server rendered the page from: data, not code
 * (`application/json` is never run, so the pages' policy of no inline script holds), and every `<`
 * escaped, so that no text in the data can close the element.
 */
export function serverStateScript(queryClient: QueryClient): string {
  const state: ServerState = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.status === 'success')
    .map((query) => [query.queryKey, query.state.data, query.state.dataUpdatedAt]);
  const json = JSON.stringify(state).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${stateElementId}">${json}</script>`;
}

/**
 * Puts what the server read into the cache, so that the first render in the browser shows the same data
 * as the server's markup; false when the page came without it (the server did not render the page).
 */
export function takeServerState(queryClient: QueryClient): boolean {
  const element = document.getElementById(stateElementId);
  if (!element?.textContent) return false;
  for (const [queryKey, data, updatedAt] of JSON.parse(element.textContent) as ServerState) {
    queryClient.setQueryData(queryKey, data, { updatedAt });
  }
  return true;
}
