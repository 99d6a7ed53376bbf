import { createFileRoute } from '@tanstack/react-router';
import { signedInUserOrNull } from '../accounts/useSignedInUser';
import { paymentReturnSearch } from '../billing/paymentReturn';
import { SubscribePage } from '../billing/SubscribePage';
import { PageError } from '../components/PageError';
import { PagePending } from '../components/PagePending';

/** Public: a visitor who picks a plan signs in first. */
export const Route = createFileRoute('/subscribe')({
  validateSearch: paymentReturnSearch,
  // Who is asking decides what a plan's button does (a visitor signs in first): known before it shows.
  loader: ({ context: { queryClient } }) => signedInUserOrNull(queryClient),
  pendingComponent: PagePending,
  errorComponent: PageError,
  component: SubscribeRoute,
});

function SubscribeRoute() {
  return <SubscribePage search={Route.useSearch()} />;
}
