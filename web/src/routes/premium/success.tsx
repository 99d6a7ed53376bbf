import { createFileRoute } from '@tanstack/react-router';
import { orNotFound } from '../../api/orNotFound';
import { PageError } from '../../components/PageError';
import { PagePending } from '../../components/PagePending';
import { PremiumSuccessPage, PurchaseNotFound } from '../../marketplace/PremiumSuccessPage';
// Apart from the page: the router checks the query up front, and the page's code loads with the page.
import { premiumSuccessSearch } from '../../marketplace/premiumFacts';

/** Public: the purchase confirmation the card form returns to. */
export const Route = createFileRoute('/premium/success')({
  validateSearch: premiumSuccessSearch,
  loaderDeps: ({ search: { payment_intent, slug } }) => ({ payment_intent, slug }),
  // The page clears its query once read: the purchase is loaded by then, and nothing more is asked.
  loader: async ({ context: { queryClient }, deps: { payment_intent, slug } }) => {
    if (payment_intent === undefined) return;
    const { purchaseQueryOptions } = await import('../../marketplace/api');
    await orNotFound(queryClient.ensureQueryData(purchaseQueryOptions(payment_intent, slug)));
  },
  pendingComponent: PagePending,
  errorComponent: PageError,
  notFoundComponent: PurchaseNotFound,
  component: SuccessRoute,
});

function SuccessRoute() {
  return <PremiumSuccessPage search={Route.useSearch()} />;
}
