import { z } from 'zod';
import { endpoint } from '../endpoint';
import { demoLinkSchema, demoShortenBody } from './api';

/** The landing page's demo: shortening without an account, and this browser's demo links. */
export const demoEndpoints = {
  demoShorten: endpoint('POST /api/demo/shorten', { 201: demoLinkSchema }, { body: demoShortenBody }),
  demoLinks: endpoint('GET /api/demo/links', { 200: z.array(demoLinkSchema) }),
};
