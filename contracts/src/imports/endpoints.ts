import { z } from 'zod';
import { endpoint } from '../endpoint';
import { importFormatSchema, importJobSchema, startImportBody, uploadImportQuery } from './api';

/** Importing links from another shortener's export: upload, preview, start, follow. */
export const importEndpoints = {
  importFormats: endpoint('GET /api/imports/formats', { 200: z.array(importFormatSchema) }),
  listImports: endpoint('GET /api/imports', { 200: z.array(importJobSchema) }),
  uploadImport: endpoint('POST /api/imports', { 201: importJobSchema }, { querystring: uploadImportQuery }),
  getImport: endpoint('GET /api/imports/:id', { 200: importJobSchema }),
  startImport: endpoint('POST /api/imports/:id/start', { 200: importJobSchema }, { body: startImportBody }),
};
