import type { User } from '@sniplink/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { adminFeature } from './admin/feature';
import type { AdminSearch } from './admin/places';
import { adminDocsFeature } from './admin-docs/feature';
import { billingFeature } from './billing/feature';
import { dashboardFeature } from './dashboard/feature';
import { eventConsoleFeature } from './event-console/feature';
import { importsFeature } from './imports/feature';
import { linksFeature } from './links/feature';
import { marketplaceFeature } from './marketplace/feature';
import { moderationFeature } from './moderation/feature';
import { seoFeature } from './seo/feature';
import { supportFeature } from './support/feature';
import { webhooksFeature } from './webhooks/feature';

/** A tab of the admin console. */
export interface AdminTab {
  /** The tab's key in the address (`/admin?tab=users`). */
  value: string;
  label: string;
  /**
   * Where the tab stands among all features' tabs, smallest first. The console's order is Overview,
   * Users, Support, SEO, Announce, Config, Moderate, Premium, Docs, Events: tens leave room for a tab between two.
   */
  order: number;
  panel: () => ReactNode;
  /**
   * Loads what the panel shows at the console's place (its search, page, open dialog) before it opens:
   * the console's loader waits for it, and the panel reads the cache.
   */
  load?: (queryClient: QueryClient, place: AdminSearch) => Promise<unknown>;
}

/** What every card of the signed-in home is given. */
export interface DashboardCardProps {
  user: User;
}

/** A card (or a dialog) of the signed-in home. */
export interface DashboardCard {
  key: string;
  /**
   * Where the card stands, smallest first: greeting, announcements, failed payment, onboarding, new link,
   * figures, imports, the links, premium slugs, then the Support Center dialog.
   */
  order: number;
  render: (props: DashboardCardProps) => ReactNode;
}

/** What one feature folder adds to the shared pages. */
export interface Feature {
  adminTabs?: readonly AdminTab[];
  dashboardCards?: readonly DashboardCard[];
}

/** Every feature of the web app: adding a tab or a card edits its feature and, for a new feature, this list. */
const features: readonly Feature[] = [
  adminFeature,
  adminDocsFeature,
  billingFeature,
  dashboardFeature,
  eventConsoleFeature,
  importsFeature,
  linksFeature,
  marketplaceFeature,
  moderationFeature,
  seoFeature,
  supportFeature,
  webhooksFeature,
];

const byOrder = (a: { order: number }, b: { order: number }) => a.order - b.order;

/** The admin console's tabs, from every feature, in the console's order. */
export const adminTabs: readonly AdminTab[] = features
  .flatMap((feature) => feature.adminTabs ?? [])
  .sort(byOrder);

/** The signed-in home's cards, from every feature, top to bottom. */
export const dashboardCards: readonly DashboardCard[] = features
  .flatMap((feature) => feature.dashboardCards ?? [])
  .sort(byOrder);
