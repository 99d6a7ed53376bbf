import { z } from 'zod';

/** POST /api/demo/shorten */
export const demoShortenBody = z
  .object({ url: z.string({ error: 'is required' }) })
  .meta({ id: 'DemoShortenBody' });
export const demoLinkSchema = z
  .object({ id: z.string(), shortUrl: z.string(), originalUrl: z.string() })
  .meta({ id: 'DemoLink' });
export type DemoLink = z.infer<typeof demoLinkSchema>;
/** A visitor's demo link redirects this long, unless signing up or in claims it into an account. */
export const DEMO_LINK_LIFETIME_DAYS = 7;
