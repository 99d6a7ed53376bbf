import { createFileRoute } from '@tanstack/react-router';
import { PageError } from '../components/PageError';
import { PagePending } from '../components/PagePending';
import { MarketplacePage } from '../marketplace/MarketplacePage';

/** Public: visitors browse; buying needs Pro. */
export const Route = createFileRoute('/marketplace')({
  // The loader stays in the app's first chunk: it fetches the page's code with its data.
  loader: async ({ context: { queryClient } }) => {
    const { loadMarketplace } = await import('../marketplace/MarketplacePage');
    await loadMarketplace(queryClient);
  },
  pendingComponent: PagePending,
  errorComponent: PageError,
  component: MarketplacePage,
});
