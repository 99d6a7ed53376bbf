import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  availabilitySchema,
  createLinkBody,
  deletedLinkSchema,
  linkLimitsSchema,
  linkSchema,
  linkTagCountSchema,
  updateLinkBody,
} from './api';
import { linkHistoryEntrySchema } from './history';

/** Each parameter once: a repeated one (`?search=a&search=b`) is an array, a 400 rather than a 500. */
const listQuery = z.object({
  search: z.string().optional().describe('Matches title, target or code, ignoring case'),
  tag: z.string().optional().describe('Only links with this tag (compared lower-cased)'),
  limit: z.string().optional().describe('At most this many (at most 1000); not a whole number: ignored'),
  offset: z.string().optional().describe('Skip this many; not a whole number: ignored'),
});

/** The signed-in user's links. */
export const linkEndpoints = {
  listLinks: endpoint('GET /api/links', { 200: z.array(linkSchema) }, { querystring: listQuery }),
  linkTags: endpoint('GET /api/links/tags', { 200: z.array(linkTagCountSchema) }),
  createLink: endpoint('POST /api/links', { 201: linkSchema }, { body: createLinkBody }),
  updateLink: endpoint('PATCH /api/links/:id', { 200: linkSchema }, { body: updateLinkBody }),
  deleteLink: endpoint('DELETE /api/links/:id', { 200: deletedLinkSchema }),
  duplicateLink: endpoint('POST /api/links/:id/duplicate', { 201: linkSchema }),
  /** The link's changes, newest first. */
  linkHistory: endpoint('GET /api/links/:id/history', { 200: z.array(linkHistoryEntrySchema) }),
  checkAvailability: endpoint(
    'GET /api/links/check-availability/:code',
    { 200: availabilitySchema },
    { params: z.object({ code: z.string() }) },
  ),
  /** Open to anyone: the landing page names the allowances too. */
  linkLimits: endpoint('GET /api/links/limits', { 200: linkLimitsSchema }),
};
