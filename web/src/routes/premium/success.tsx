import { createFileRoute } from '@tanstack/react-router';
import { PremiumSuccessPage } from '../../marketplace/PremiumSuccessPage';
// Apart from the page: the router checks the query up front, and the page's code loads with the page.
import { premiumSuccessSearch } from '../../marketplace/premiumFacts';

/** Public: the purchase confirmation the card form returns to. */
export const Route = createFileRoute('/premium/success')({
  validateSearch: premiumSuccessSearch,
  component: SuccessRoute,
});

function SuccessRoute() {
  return <PremiumSuccessPage search={Route.useSearch()} />;
}
