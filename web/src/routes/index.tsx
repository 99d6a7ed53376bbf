import { Center, Loader } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { currentUserQueryOptions } from '../accounts/api';
import { PageTitle } from '../components/PageTitle';
import { LandingPage } from '../landing/LandingPage';

const pageTitle = pages['/'].title;

// The dashboard is its own chunk: a visitor on the landing page never downloads it.
const DashboardPage = lazy(() =>
  import('../dashboard/DashboardPage').then((module) => ({ default: module.DashboardPage })),
);

export const Route = createFileRoute('/')({
  component: HomeRoute,
});

/** "/" is the landing page signed out and the dashboard signed in. */
function HomeRoute() {
  const { data: user, isPending } = useQuery(currentUserQueryOptions());
  if (isPending) return <PageSpinner />;
  if (user) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <DashboardPage user={user} />
      </Suspense>
    );
  }
  return (
    <>
      <PageTitle title={pageTitle} />
      <LandingPage headline={pageTitle} />
    </>
  );
}

function PageSpinner() {
  return (
    <Center py={96}>
      <Loader aria-label="Loading" />
    </Center>
  );
}
