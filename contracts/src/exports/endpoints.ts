import { z } from 'zod';
import { endpoint } from '../endpoint';
import { dataExportSchema, latestExportSchema } from './api';

/** "Download my data" (Profile): start an export, follow it, download its ZIP. Session only. */
export const exportEndpoints = {
  latestExport: endpoint('GET /api/exports/latest', { 200: latestExportSchema }),
  startExport: endpoint('POST /api/exports', { 202: dataExportSchema }),
  /** A download the browser follows (a link), not a call: its answer is the ZIP's bytes. */
  downloadExport: endpoint('GET /api/exports/:id/download', { 200: z.string() }),
};
