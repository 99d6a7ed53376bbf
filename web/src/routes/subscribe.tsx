import { createFileRoute } from '@tanstack/react-router';
import { paymentReturnSearch } from '../billing/paymentReturn';
import { SubscribePage } from '../billing/SubscribePage';

/** Public: a visitor who picks a plan signs in first. */
export const Route = createFileRoute('/subscribe')({
  validateSearch: paymentReturnSearch,
  component: SubscribeRoute,
});

function SubscribeRoute() {
  return <SubscribePage search={Route.useSearch()} />;
}
