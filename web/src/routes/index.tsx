import { pages } from '@sniplink/contracts/pages';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { currentUserQueryOptions } from '../accounts/api';
import { signedInUserOrNull } from '../accounts/useSignedInUser';
import { PagePending } from '../components/PagePending';
import { PageTitle } from '../components/PageTitle';
import { dashboardSearchSchema } from '../dashboard/places';
import { LandingPage } from '../landing/LandingPage';
import { linkLimitsQueryOptions } from '../links/limitsApi';

const pageTitle = pages['/'].title;

// The dashboard is its own chunk: a visitor on the landing page never downloads it.
const DashboardPage = lazy(() =>
  import('../dashboard/DashboardPage').then((module) => ({ default: module.DashboardPage })),
);

export const Route = createFileRoute('/')({
  // Signed in, "/" is the dashboard, with the dashboard's places in its address.
  validateSearch: dashboardSearchSchema,
  // Who is asking decides the page; a signed-in user's dashboard data comes with it.
  // The dashboard's places open dialogs and panels whose data the loader brings.
  loaderDeps: ({ search: { support, ticket, analytics } }) => ({ support, ticket, analytics }),
  loader: async ({ context: { queryClient }, deps }) => {
    // Asked alongside: the landing page names the link allowances in force (a prefetch never fails).
    const limits = queryClient.prefetchQuery(linkLimitsQueryOptions());
    const user = await signedInUserOrNull(queryClient);
    if (user) {
      const { loadDashboard } = await import('../dashboard/DashboardPage');
      await loadDashboard(queryClient, deps);
    } else {
      await limits;
    }
  },
  // A failure shows the router's default, PageError.
  pendingComponent: PagePending,
  component: HomeRoute,
});

/** "/" is the landing page signed out and the dashboard signed in. */
function HomeRoute() {
  // The loader has the answer in the cache; a failure to ask reads as signed out.
  const { data: user } = useQuery(currentUserQueryOptions());
  if (user) {
    return (
      <Suspense fallback={<PagePending />}>
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
