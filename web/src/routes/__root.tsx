import { Box } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { PageError } from '../components/PageError';
import { PageNotFound } from '../components/PageNotFound';
import { TopBar } from '../components/TopBar';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  // A page's own error shows under the top bar (the router's defaultErrorComponent, main.tsx); this one
  // is for an error of the root itself.
  errorComponent: PageError,
  notFoundComponent: PageNotFound,
});

function RootLayout() {
  return (
    <>
      <TopBar />
      <Box component="main">
        <Outlet />
      </Box>
    </>
  );
}
