import { lazy } from 'react';
import type { Feature } from '../features';
import { prohibitedWordsQueryOptions, protectedBrandsQueryOptions, slugApprovalsQueryOptions } from './api';
import { RejectedCodesNotice } from './RejectedCodesNotice';

// The tab's code loads when it first opens: the home never loads it.
const ModerateTab = lazy(() => import('./ModerateTab').then((module) => ({ default: module.ModerateTab })));

/** The console's Moderate tab (between Config and Premium), and the home's notice of rejected codes. */
export const moderationFeature: Feature = {
  adminTabs: [
    {
      value: 'moderate',
      label: 'Moderate',
      order: 55,
      panel: () => <ModerateTab />,
      load: async (queryClient, place) => {
        if (place.list === 'approvals')
          await queryClient.ensureQueryData(slugApprovalsQueryOptions(place.approval ?? 'pending'));
        else if (place.list === 'brands') await queryClient.ensureQueryData(protectedBrandsQueryOptions());
        else await queryClient.ensureQueryData(prohibitedWordsQueryOptions());
      },
    },
  ],
  // Under the announcements, above the failed-payment notice and the figures.
  dashboardCards: [{ key: 'rejected-codes', order: 25, render: () => <RejectedCodesNotice /> }],
};
