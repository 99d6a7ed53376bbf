import { endpoint } from '../endpoint';
import { seoEntryListSchema, seoEntrySchema, updateSeoBody } from './api';

/**
 * The pages' SEO entries. The list is open to anyone (the web app sets its page titles from it) and
 * answers the public entries, or every entry to an admin; a change is the console's, behind the admin gate.
 */
export const seoEndpoints = {
  listSeo: endpoint('GET /api/admin/seo', { 200: seoEntryListSchema }),
  updateSeo: endpoint('PUT /api/admin/seo/:page', { 200: seoEntrySchema }, { body: updateSeoBody }),
};
