import { lazy } from 'react';
import type { Feature } from '../features';

// The tab's code (the markdown renderer too) and its calls load when the tab first opens: nothing of it
// is in the app's first chunk.
const DocsTab = lazy(() => import('./DocsTab').then((module) => ({ default: module.DocsTab })));

/** The console's Docs tab: internal documentation for admins. */
export const adminDocsFeature: Feature = {
  adminTabs: [
    {
      value: 'docs',
      label: 'Docs',
      order: 70,
      panel: () => <DocsTab />,
      load: async (queryClient, place) => {
        const { adminDocsQueryOptions } = await import('./api');
        await queryClient.ensureQueryData(adminDocsQueryOptions(place.section));
      },
    },
  ],
};
