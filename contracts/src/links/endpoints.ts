import { z } from 'zod';
import { endpoint } from '../endpoint';
import { availabilitySchema, createLinkBody, deletedLinkSchema, linkSchema, updateLinkBody } from './api';

/** Each parameter once: a repeated one (`?search=a&search=b`) is an array, a 400 rather than a 500. */
const listQuery = z.object({
  search: z.string().optional().describe('Matches title, target or code, ignoring case'),
  limit: z.string().optional().describe('At most this many (at most 1000); not a whole number: ignored'),
  offset: z.string().optional().describe('Skip this many; not a whole number: ignored'),
});

/** The signed-in user's links. */
export const linkEndpoints = {
  listLinks: endpoint('GET /api/links', { querystring: listQuery, answers: { 200: z.array(linkSchema) } }),
  createLink: endpoint('POST /api/links', { body: createLinkBody, answers: { 201: linkSchema } }),
  updateLink: endpoint('PATCH /api/links/:id', { body: updateLinkBody, answers: { 200: linkSchema } }),
  deleteLink: endpoint('DELETE /api/links/:id', { answers: { 200: deletedLinkSchema } }),
  duplicateLink: endpoint('POST /api/links/:id/duplicate', { answers: { 201: linkSchema } }),
  checkAvailability: endpoint('GET /api/links/check-availability/:code', {
    params: z.object({ code: z.string() }),
    answers: { 200: availabilitySchema },
  }),
};
