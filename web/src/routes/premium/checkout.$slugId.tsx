import { createFileRoute } from '@tanstack/react-router';
import { orNotFound } from '../../api/orNotFound';
import { PageError } from '../../components/PageError';
import { PagePending } from '../../components/PagePending';
import { PremiumCheckoutPage, PremiumSlugNotFound } from '../../marketplace/PremiumCheckoutPage';

/** Public: the page loads for anyone; paying needs a signed-in Pro user. */
export const Route = createFileRoute('/premium/checkout/$slugId')({
  // The loader stays in the app's first chunk: it fetches the page's code with the slug.
  loader: async ({ context: { queryClient }, params: { slugId } }) => {
    const { marketplaceSlugQueryOptions } = await import('../../marketplace/api');
    await orNotFound(queryClient.ensureQueryData(marketplaceSlugQueryOptions(slugId)));
  },
  pendingComponent: PagePending,
  errorComponent: PageError,
  notFoundComponent: PremiumSlugNotFound,
  component: CheckoutRoute,
});

function CheckoutRoute() {
  return <PremiumCheckoutPage slugId={Route.useParams().slugId} />;
}
