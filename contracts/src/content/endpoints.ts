import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  pageCopyParams,
  pageCopySchema,
  pageCopyVersionSchema,
  publicPageCopySchema,
  savePageCopyBody,
} from './api';

/** What the public informational pages read. */
export const pageCopyEndpoints = {
  publishedPageCopy: endpoint(
    'GET /api/content/:page',
    { 200: publicPageCopySchema },
    { params: pageCopyParams },
  ),
};

/** The console's page copy editor, behind the admin gate. */
export const pageCopyAdminEndpoints = {
  listPageCopy: endpoint('GET /api/admin/content', { 200: z.array(pageCopySchema) }),
  pageCopy: endpoint('GET /api/admin/content/:page', { 200: pageCopySchema }, { params: pageCopyParams }),
  savePageCopy: endpoint(
    'PUT /api/admin/content/:page',
    { 200: pageCopySchema },
    { params: pageCopyParams, body: savePageCopyBody },
  ),
  publishPageCopy: endpoint(
    'POST /api/admin/content/:page/publish',
    { 200: pageCopySchema },
    { params: pageCopyParams },
  ),
  pageCopyVersions: endpoint(
    'GET /api/admin/content/:page/versions',
    { 200: z.array(pageCopyVersionSchema) },
    { params: pageCopyParams },
  ),
};
