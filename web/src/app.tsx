import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory, RouterProvider } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { PageError } from './components/PageError';
import { PageNotFound } from './components/PageNotFound';
import { routeTree } from './routeTree.gen';
import { cssVariablesResolver, theme } from './theme';

/**
 * The app's router, made the same way in the browser (main.tsx) and on the server (entry-server.tsx), so
 * that the page the server renders is the one the browser hydrates. The server passes the request's
 * address as memory history; the browser's is its own.
 */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context: { queryClient },
    // Every route, not only the root: a page that fails shows this under the top bar, which still works.
    defaultErrorComponent: PageError,
    defaultNotFoundComponent: PageNotFound,
    defaultPreload: 'intent',
    // TanStack Query owns caching, so the router always calls loaders and lets the cache answer.
    defaultPreloadStaleTime: 0,
    // In the browser only: on the server the router would write its restoring script into the page,
    // and the pages' policy runs no inline script.
    scrollRestoration: history === undefined,
    ...(history ? { history } : {}),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

// The toasts' renderer (transitions, drag to dismiss) is its own chunk, fetched with the first toast:
// most visits of the landing page never show one. `toast` only writes to the store, which is tiny.
const ToastRenderer = lazy(() => import('./ToastRenderer'));

/** Mounts the toasts' renderer once the first toast is shown, and keeps it from then on. */
function Toasts() {
  const { notifications } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastRenderer />
    </Suspense>
  );
}

/** The whole app, the same tree on the server and in the browser (a difference would be a hydration error). */
export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Toasts />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
