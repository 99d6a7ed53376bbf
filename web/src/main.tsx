import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PageError } from './components/PageError';
import { PageNotFound } from './components/PageNotFound';
import { createQueryClient } from './queryClient';
import { routeTree } from './routeTree.gen';
import { cssVariablesResolver, theme } from './theme';

const queryClient = createQueryClient();

const router = createRouter({
  routeTree,
  context: { queryClient },
  // Every route, not only the root: a page that fails shows this under the top bar, which still works.
  defaultErrorComponent: PageError,
  defaultNotFoundComponent: PageNotFound,
  defaultPreload: 'intent',
  // TanStack Query owns caching, so the router always calls loaders and lets the cache answer.
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
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

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Toasts />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
