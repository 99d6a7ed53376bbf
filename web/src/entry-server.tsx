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
 * redirect, not found, a part that threw) is refused with the reason, and the caller serves the page
 * without markup. The loaders run on every request, so the page always shows the data of the moment;
 * React renders only when that data differs from a previous render's (`renderedMarkup`).
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
  const html =
    renderedMarkup.get(markupKey(url, queryClient)) ?? (await renderMarkup(url, router, queryClient, signal));
  return { html, stateScript: serverStateScript(queryClient) };
}

/**
 * The markup of recent renders by what it was rendered from: the address, the data its calls answered
 * and the year (the footer's). Nothing else goes into a page, so the same key is the same markup.
 * The oldest render goes first past `MARKUP_CACHE_ENTRIES` (a query string makes an address of its own).
 */
const renderedMarkup = new Map<string, string>();
const MARKUP_CACHE_ENTRIES = 32;

function markupKey(url: string, queryClient: QueryClient): string {
  const data = queryClient
    .getQueryCache()
    .getAll()
    // A query a part only looked at (disabled, or left to the browser) has no data and changes nothing.
    .filter((query) => query.state.data !== undefined)
    .map((query) => [query.queryHash, query.state.data]);
  return JSON.stringify([url, new Date().getFullYear(), data]);
}

async function renderMarkup(
  url: string,
  router: AppRouter,
  queryClient: QueryClient,
  signal: AbortSignal | undefined,
): Promise<string> {
  let failure: unknown;
  const { prelude } = await prerender(<App router={router} queryClient={queryClient} />, {
    signal,
    // Every part in place in the markup. By default React sends a large part apart, hidden, with an
    // inline script that moves it in: the pages' policy runs no inline script, nor does a crawler.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    // A part that throws would be left for the browser to render, which it reports as an error.
    onError: (error) => {
      failure ??= error;
    },
  });
  const html = await new Response(prelude).text();
  if (failure) throw new Error(`${url}: a part of the page failed to render`, { cause: failure });
  // Kept under the data it was rendered from, counting what parts fetched while rendering: a page
  // whose render fetches more than its loaders never matches a key made before rendering, and renders.
  renderedMarkup.set(markupKey(url, queryClient), html);
  for (const oldest of renderedMarkup.keys()) {
    if (renderedMarkup.size <= MARKUP_CACHE_ENTRIES) break;
    renderedMarkup.delete(oldest);
  }
  return html;
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
