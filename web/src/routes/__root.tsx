import { Box } from '@mantine/core';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { currentUserQueryOptions } from '../accounts/api';
import { PageError } from '../components/PageError';
import { PageNotFound } from '../components/PageNotFound';
import { PagePending } from '../components/PagePending';
import { TopBar } from '../components/TopBar';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  // A page's own error shows under the top bar (the router's defaultErrorComponent, main.tsx); this one
  // is for an error of the root itself.
  errorComponent: PageError,
  notFoundComponent: PageNotFound,
});

// The signed-in shell (Mantine's AppShell) is a chunk of its own: the landing page's visitor never needs it.
const SignedInShell = lazy(() =>
  import('../components/SignedInShell').then((module) => ({ default: module.SignedInShell })),
);

/**
 * Signed in, every page is in the one shell (header with navigation and avatar menu, content as wide as
 * the header's); signed out, the same header above the page. Either way the header is the page's one
 * banner landmark.
 */
function RootLayout() {
  const { data: user } = useQuery(currentUserQueryOptions());
  if (!user) return <SignedOutLayout />;
  // The shell's code comes once (a moment, on the first signed-in page): the page waits for it rather
  // than showing without the shell and again inside it.
  return (
    <Suspense fallback={<PagePending />}>
      <SignedInShell header={<TopBar />}>
        <Outlet />
      </SignedInShell>
    </Suspense>
  );
}

function SignedOutLayout() {
  return (
    <>
      <Box component="header" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Box h={60}>
          <TopBar />
        </Box>
      </Box>
      <Box component="main">
        <Outlet />
      </Box>
    </>
  );
}
