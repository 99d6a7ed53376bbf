import { createFileRoute } from '@tanstack/react-router';
import { signedInUserOrNull } from '../accounts/useSignedInUser';
import { paymentReturnSearch } from '../billing/paymentReturn';
import { SubscribePage } from '../billing/SubscribePage';
import { PageError } from '../components/PageError';
import { PagePending } from '../components/PagePending';
import { linkLimitsQueryOptions } from '../links/limitsApi';

/** Public: a visitor who picks a plan signs in first. */
export const Route = createFileRoute('/subscribe')({
  validateSearch: paymentReturnSearch,
  // Who is asking decides what a plan's button does (a visitor signs in first): known before it shows.
  // The plans name the link allowances in force (a prefetch never fails).
  loader: async ({ context: { queryClient } }) => {
    const [user] = await Promise.all([
      signedInUserOrNull(queryClient),
      queryClient.prefetchQuery(linkLimitsQueryOptions()),
    ]);
    return user;
  },
  pendingComponent: PagePending,
  errorComponent: PageError,
  component: SubscribeRoute,
});

function SubscribeRoute() {
  return <SubscribePage search={Route.useSearch()} />;
}
