import { lazy } from 'react';
import type { Feature } from '../features';
import { AnnouncementBanners } from './AnnouncementBanners';
import { adminAnnouncementsQueryOptions } from './announcementsApi';
import { configEntriesQueryOptions, knownSettingsQueryOptions } from './configApi';
import { adminDetailedStatsQueryOptions, adminTrendsQueryOptions } from './statsApi';
import { loadUsersTab } from './usersApi';

// Each tab's code loads when the tab first opens: the home, which reads the same list, never loads it.
const AnnounceTab = lazy(() => import('./AnnounceTab').then((module) => ({ default: module.AnnounceTab })));
const ConfigTab = lazy(() => import('./ConfigTab').then((module) => ({ default: module.ConfigTab })));
const OverviewTab = lazy(() => import('./OverviewTab').then((module) => ({ default: module.OverviewTab })));
const UsersTab = lazy(() => import('./UsersTab').then((module) => ({ default: module.UsersTab })));

/** The console's own tabs, and the announcements admins publish, shown on every user's home. */
export const adminFeature: Feature = {
  adminTabs: [
    {
      value: 'overview',
      label: 'Overview',
      order: 10,
      panel: () => <OverviewTab />,
      load: async (queryClient) => {
        await Promise.all([
          queryClient.ensureQueryData(adminDetailedStatsQueryOptions()),
          queryClient.ensureQueryData(adminTrendsQueryOptions()),
        ]);
      },
    },
    {
      value: 'users',
      label: 'Users',
      order: 20,
      panel: () => <UsersTab />,
      load: loadUsersTab,
    },
    {
      value: 'announce',
      label: 'Announce',
      order: 40,
      panel: () => <AnnounceTab />,
      load: (queryClient) => queryClient.ensureQueryData(adminAnnouncementsQueryOptions()),
    },
    {
      value: 'config',
      label: 'Config',
      order: 50,
      panel: () => <ConfigTab />,
      load: async (queryClient) => {
        await Promise.all([
          queryClient.ensureQueryData(configEntriesQueryOptions()),
          queryClient.ensureQueryData(knownSettingsQueryOptions()),
        ]);
      },
    },
  ],
  dashboardCards: [{ key: 'announcements', order: 20, render: () => <AnnouncementBanners /> }],
};
