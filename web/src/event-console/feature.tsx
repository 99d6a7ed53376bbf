import { lazy } from 'react';
import type { Feature } from '../features';

// The tab's code and its calls load when the tab first opens: nothing of it is in the app's first chunk.
const EventsTab = lazy(() => import('./EventsTab').then((module) => ({ default: module.EventsTab })));

/** The console's Events tab: any entity's history from the event log. */
export const eventConsoleFeature: Feature = {
  adminTabs: [
    {
      value: 'events',
      label: 'Events',
      order: 80,
      panel: () => <EventsTab />,
      load: async (queryClient, place) => {
        const { loadEventsTab } = await import('./load');
        await loadEventsTab(queryClient, place);
      },
    },
  ],
};
