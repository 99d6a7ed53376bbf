import { Box } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { PageNotFound } from '../components/PageNotFound';
import { TopBar } from '../components/TopBar';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
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
