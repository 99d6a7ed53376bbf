import { lazy } from 'react';
import type { Feature } from '../features';
import { consoleSeoQueryOptions } from './api';
import { hasPageCopy } from './pageCopyEditors';

// The tab's code loads when the tab first opens.
const SeoTab = lazy(() => import('./SeoTab').then((module) => ({ default: module.SeoTab })));

/** The console's SEO tab; the page titles follow the public entries through `PageTitle`. */
export const seoFeature: Feature = {
  adminTabs: [
    {
      value: 'seo',
      label: 'SEO',
      order: 35,
      panel: () => <SeoTab />,
      load: (queryClient, { seoPage }) =>
        Promise.all([
          queryClient.ensureQueryData(consoleSeoQueryOptions()),
          hasPageCopy(seoPage) &&
            import('../content/api').then(({ loadPageCopyEditor }) =>
              loadPageCopyEditor(queryClient, seoPage),
            ),
        ]),
    },
  ],
};
