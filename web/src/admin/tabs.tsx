import type { ReactNode } from 'react';
import { AnnounceTab } from './AnnounceTab';
import { ConfigTab } from './ConfigTab';
import { OverviewTab } from './OverviewTab';
import { PremiumTab } from './PremiumTab';
import { SupportTab } from './SupportTab';
import { UsersTab } from './UsersTab';

export interface AdminTab {
  /** The tab's key in the address (`/admin?tab=users`). */
  value: string;
  label: string;
  panel: () => ReactNode;
}

/**
 * The console's tabs, in order (Overview, Users, Support, SEO,
 * Announce, Config, Moderate, Premium, Docs). A new tab adds its entry here, in its place.
 */
export const adminTabs: readonly AdminTab[] = [
  { value: 'overview', label: 'Overview', panel: () => <OverviewTab /> },
  { value: 'users', label: 'Users', panel: () => <UsersTab /> },
  { value: 'support', label: 'Support', panel: () => <SupportTab /> },
  { value: 'announce', label: 'Announce', panel: () => <AnnounceTab /> },
  { value: 'config', label: 'Config', panel: () => <ConfigTab /> },
  { value: 'premium', label: 'Premium', panel: () => <PremiumTab /> },
];
