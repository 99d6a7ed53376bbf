import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  adminDocBody,
  adminDocSchema,
  adminDocsQuery,
  adminDocsSeedResultSchema,
  deletedAdminDocSchema,
} from './api';

/** The console's Docs tab, behind the admin gate. */
export const adminDocEndpoints = {
  listAdminDocs: endpoint(
    'GET /api/admin/docs',
    { 200: z.array(adminDocSchema) },
    { querystring: adminDocsQuery },
  ),
  addAdminDoc: endpoint('POST /api/admin/docs', { 201: adminDocSchema }, { body: adminDocBody }),
  updateAdminDoc: endpoint('PUT /api/admin/docs/:id', { 200: adminDocSchema }, { body: adminDocBody }),
  deleteAdminDoc: endpoint('DELETE /api/admin/docs/:id', { 200: deletedAdminDocSchema }),
  seedAdminDocs: endpoint('POST /api/admin/docs/seed', { 200: adminDocsSeedResultSchema }),
};
