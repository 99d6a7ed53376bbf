import { createFileRoute } from '@tanstack/react-router';
import { PremiumSuccessPage, premiumSuccessSearch } from '../../marketplace/PremiumSuccessPage';

/** Public: the purchase confirmation the card form returns to. */
export const Route = createFileRoute('/premium/success')({
  validateSearch: premiumSuccessSearch,
  component: SuccessRoute,
});

function SuccessRoute() {
  return <PremiumSuccessPage search={Route.useSearch()} />;
}
