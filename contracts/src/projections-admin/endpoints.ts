import { endpoint } from '../endpoint';
import { projectionHealthListSchema, rebuildStartedSchema } from './api';

/** The read models' health and their rebuilds (the console's Events tab), behind the admin gate. */
export const projectionsAdminEndpoints = {
  listProjections: endpoint('GET /api/admin/projections', { 200: projectionHealthListSchema }),
  rebuildProjection: endpoint('POST /api/admin/projections/:name/rebuild', { 202: rebuildStartedSchema }),
};
