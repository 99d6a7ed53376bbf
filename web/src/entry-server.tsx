import type { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { prerender } from 'react-dom/static';
import { currentUserQueryOptions } from './accounts/api';
import { type ApiTransport, sendCallsThrough } from './api/http';
import { App, type AppRouter, createAppRouter } from './app';
import { createQueryClient } from './queryClient';
import { serverStateScript } from './serverState';

/**
 * The server's render of a public page (built apart by `vite build --ssr`, loaded by the API server's
 * web.ts): the markup that goes inside `#root`, and the data it was rendered from, which the browser
 * takes before it hydrates (main.tsx).
 */
export interface ServerRenderedPage {
  html: string;
  stateScript: string;
}

/** Calls of the API go through `transport` (the server answers them in-process); call once, before rendering. */
export function answerCallsWith(transport: ApiTransport): void {
  sendCallsThrough(transport);
}

/**
 * Renders the page at `url` (path and query) as a visitor who is not signed in sees it: the router runs
 * the page's loaders, every call they started is waited for, then React renders, waiting for every
 * lazy part. A page that would not show as it does in the browser (a loader failed, a call failed, a
 * redirect, not found) is refused with the reason, and the caller serves the page without markup.
 */
export async function renderPage(url: string, signal?: AbortSignal): Promise<ServerRenderedPage> {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [url] }));
  // Who is asking: every page's top bar shows it, and only some pages' loaders ask (the browser asks
  // as the bar mounts, which a server render never does).
  await queryClient.prefetchQuery(currentUserQueryOptions());
  await router.load();
  await callsSettled(queryClient);
  const problem = unrenderable(router, queryClient);
  if (problem) throw new Error(`${url}: ${problem}`);
  const { prelude } = await prerender(<App router={router} queryClient={queryClient} />, {
    signal,
    // Every part in place in the markup. By default React sends a large part apart, hidden, with an
    // inline script that moves it in: the pages' policy runs no inline script, nor does a crawler.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    // A component that throws while rendering shows its error boundary in the browser; here it refuses.
    onError: (error) => {
      throw error;
    },
  });
  const html = await new Response(prelude).text();
  // After rendering: a part that fetched while rendering (a suspending query) sends its data too.
  return { html, stateScript: serverStateScript(queryClient) };
}

/** Waits until no query is fetching: a loader may start calls it does not wait for (the status card's). */
function callsSettled(queryClient: QueryClient): Promise<void> {
  if (queryClient.isFetching() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      unsubscribe();
      resolve();
    });
  });
}

/** Why the loaded page would not render as the browser shows it; undefined when it would. */
function unrenderable(router: AppRouter, queryClient: QueryClient): string | undefined {
  const failedMatch = router.state.matches.find((match) => match.status !== 'success');
  if (failedMatch) return `route ${failedMatch.routeId} is ${failedMatch.status}`;
  const failedQuery = queryClient
    .getQueryCache()
    .getAll()
    .find((query) => query.state.status === 'error');
  if (failedQuery) return `call ${JSON.stringify(failedQuery.queryKey)} failed: ${failedQuery.state.error}`;
  return undefined;
}
