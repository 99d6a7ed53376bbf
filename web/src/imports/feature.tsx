import type { Feature } from '../features';
import { ImportCard } from './ImportCard';

/** Importing links from another shortener's export, on the home, between the figures and the links. */
export const importsFeature: Feature = {
  dashboardCards: [{ key: 'imports', order: 65, render: () => <ImportCard /> }],
};
