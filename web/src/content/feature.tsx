import { lazy } from 'react';
import type { Feature } from '../features';
import { loadPageCopyEditor } from './api';
import { pageInAddress } from './pageInAddress';

// The editor and the markdown renderer load when the tab first opens.
const ContentTab = lazy(() => import('./ContentTab').then((module) => ({ default: module.ContentTab })));

/** Page copy in the console: drafts and publishing of /privacy, /terms, /about, /contact and /help. */
export const contentFeature: Feature = {
  adminTabs: [
    {
      value: 'content',
      label: 'Content',
      order: 35,
      panel: () => <ContentTab />,
      load: (queryClient, place) => loadPageCopyEditor(queryClient, pageInAddress(place.copy)),
    },
  ],
};
