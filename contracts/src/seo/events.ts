import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { seoPageKeys } from './api';

/** A page's SEO stream `seo-{page}` (`seo-about`). */
export const seoStream = stream('seo');

/**
 * Events of a page's stream `seo-{page}`. Each carries the whole entry, so the read model needs no earlier
 * event, and the acting admin in its metadata (the command context's actor), which the audit history lists.
 */
export const seoEvents = eventGroup(
  defineEvent({
    type: 'SeoSettingsUpdated',
    version: 1,
    schema: z.object({
      page: z.enum(seoPageKeys),
      title: z.string().min(1),
      description: z.string().nullable(),
      keywords: z.string().nullable(),
      ogTitle: z.string().nullable(),
      ogDescription: z.string().nullable(),
      ogImage: z.string().nullable(),
      isPublic: z.boolean(),
    }),
  }),
);
export type SeoEvent = EventsIn<typeof seoEvents>;
