import type { ReactNode } from 'react';
import { OverviewTab } from './OverviewTab';

export interface AdminTab {
  /** The tab's key in the address (`/admin?tab=users`). */
  value: string;
  label: string;
  panel: () => ReactNode;
}

/**
 * The console's tabs, in the spec's order (admin-console.md section 2: Overview, Users, Support, SEO,
 * Announce, Config, Moderate, Premium, Docs). Each tab's issue adds its entry here, in its place.
 */
export const adminTabs: readonly AdminTab[] = [
  { value: 'overview', label: 'Overview', panel: () => <OverviewTab /> },
];
