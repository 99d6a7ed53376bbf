import { createFileRoute } from '@tanstack/react-router';
import { PremiumCheckoutPage } from '../../marketplace/PremiumCheckoutPage';

/** Public: the page loads for anyone; paying needs a signed-in Pro user. */
export const Route = createFileRoute('/premium/checkout/$slugId')({ component: CheckoutRoute });

function CheckoutRoute() {
  return <PremiumCheckoutPage slugId={Route.useParams().slugId} />;
}
