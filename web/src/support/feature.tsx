import { lazy } from 'react';
import { loadSupportTab } from '../admin/supportApi';
import type { Feature } from '../features';
import { SupportDialog } from './SupportDialog';

// Each tab's code loads when the tab first opens: the home, which reads the same list, never loads it.
const SupportTab = lazy(() => import('./SupportTab').then((module) => ({ default: module.SupportTab })));

/** The user's Support Center (a dialog of the home) and the staff's Support tab. */
export const supportFeature: Feature = {
  adminTabs: [
    {
      value: 'support',
      label: 'Support',
      order: 30,
      panel: () => <SupportTab />,
      load: loadSupportTab,
    },
  ],
  dashboardCards: [{ key: 'support-center', order: 90, render: () => <SupportDialog /> }],
};
