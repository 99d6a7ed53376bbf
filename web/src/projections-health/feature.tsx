import { lazy } from 'react';
import type { Feature } from '../features';

const ProjectionsPanel = lazy(() =>
  import('./ProjectionsPanel').then((module) => ({ default: module.ProjectionsPanel })),
);

/** A console tab of its own for the projections' health until the panel finds its place in the Events tab. */
export const projectionsHealthFeature: Feature = {
  adminTabs: [{ value: 'projections', label: 'Projections', order: 95, panel: () => <ProjectionsPanel /> }],
};
