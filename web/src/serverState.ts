import { type DehydratedState, dehydrate, hydrate, type QueryClient } from '@tanstack/react-query';

/** The element holding what the server's render read, beside the root it rendered into. */
const stateElementId = 'server-state';

/**
 * The script element carrying the query cache the server rendered the page from: data, not code
 * (`application/json` is never run, so the pages' policy of no inline script holds), and every `<`
 * escaped, so that no text in the data can close the element.
 */
export function serverStateScript(queryClient: QueryClient): string {
  const json = JSON.stringify(dehydrate(queryClient)).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${stateElementId}">${json}</script>`;
}

/**
 * Puts what the server read into the cache, so that the first render in the browser shows the same data
 * as the server's markup; false when the page came without it (the server did not render the page).
 */
export function takeServerState(queryClient: QueryClient): boolean {
  const element = document.getElementById(stateElementId);
  if (!element?.textContent) return false;
  hydrate(queryClient, JSON.parse(element.textContent) as DehydratedState);
  element.remove();
  return true;
}
