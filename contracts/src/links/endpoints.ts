import { z } from 'zod';
import { endpoint } from '../endpoint';
import { availabilitySchema, createLinkBody, deletedLinkSchema, linkSchema, updateLinkBody } from './api';

const linkId = z.object({ id: z.string() });

/** Each parameter once: a repeated one (`?search=a&search=b`) is an array, a 400 rather than a 500. */
const listQuery = z.object({
  search: z.string().optional().describe('Matches title, target or code, ignoring case'),
  limit: z.string().optional().describe('At most this many (at most 1000); not a whole number: ignored'),
  offset: z.string().optional().describe('Skip this many; not a whole number: ignored'),
});

/** The signed-in user's links. */
export const linkEndpoints = {
  listLinks: endpoint({
    method: 'GET',
    path: '/api/links',
    querystring: listQuery,
    answers: { 200: z.array(linkSchema) },
  }),
  createLink: endpoint({
    method: 'POST',
    path: '/api/links',
    body: createLinkBody,
    answers: { 201: linkSchema },
  }),
  updateLink: endpoint({
    method: 'PATCH',
    path: '/api/links/:id',
    params: linkId,
    body: updateLinkBody,
    answers: { 200: linkSchema },
  }),
  deleteLink: endpoint({
    method: 'DELETE',
    path: '/api/links/:id',
    params: linkId,
    answers: { 200: deletedLinkSchema },
  }),
  duplicateLink: endpoint({
    method: 'POST',
    path: '/api/links/:id/duplicate',
    params: linkId,
    answers: { 201: linkSchema },
  }),
  checkAvailability: endpoint({
    method: 'GET',
    path: '/api/links/check-availability/:code',
    params: z.object({ code: z.string() }),
    answers: { 200: availabilitySchema },
  }),
};
