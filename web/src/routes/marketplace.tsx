import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePage } from '../marketplace/MarketplacePage';

/** Public: visitors browse; buying needs Pro. */
export const Route = createFileRoute('/marketplace')({ component: MarketplacePage });
