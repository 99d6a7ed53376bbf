import { lazy } from 'react';
import { loadPremiumTab } from '../admin/premiumSlugsApi';
import type { Feature } from '../features';
import { MyPremiumSlugsCard } from './MyPremiumSlugsCard';

// Each tab's code loads when the tab first opens: the home, which reads the same list, never loads it.
const PremiumTab = lazy(() => import('./PremiumTab').then((module) => ({ default: module.PremiumTab })));

/** The premium slugs a user owns, on the home; the catalogue admins keep, in the console. */
export const marketplaceFeature: Feature = {
  adminTabs: [
    {
      value: 'premium',
      label: 'Premium',
      order: 60,
      panel: () => <PremiumTab />,
      load: loadPremiumTab,
    },
  ],
  dashboardCards: [{ key: 'premium-slugs', order: 80, render: () => <MyPremiumSlugsCard /> }],
};
