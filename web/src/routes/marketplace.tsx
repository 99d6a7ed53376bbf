import { createFileRoute } from '@tanstack/react-router';
import { PageError } from '../components/PageError';
import { PagePending } from '../components/PagePending';
import { loadMarketplace, MarketplacePage } from '../marketplace/MarketplacePage';

/** Public: visitors browse; buying needs Pro. */
export const Route = createFileRoute('/marketplace')({
  loader: ({ context: { queryClient } }) => loadMarketplace(queryClient),
  pendingComponent: PagePending,
  errorComponent: PageError,
  component: MarketplacePage,
});
