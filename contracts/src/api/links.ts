import { z } from 'zod';

export const MAX_URL_LENGTH = 2048;
export const MAX_TITLE_LENGTH = 200;
export { CUSTOM_CODE_RULE, customCodePattern } from '../short-codes';

const title = z.string().max(MAX_TITLE_LENGTH, `must be at most ${MAX_TITLE_LENGTH} characters`).nullable();

/** POST /api/links */
export const createLinkBody = z.object({
  originalUrl: z.string({ error: 'is required' }),
  title: title.optional(),
  shortCode: z.string().optional(),
});
export type CreateLinkBody = z.infer<typeof createLinkBody>;

/** PATCH /api/links/{id}: an absent field is unchanged; a null or blank title clears it. */
export const updateLinkBody = z.object({
  title: title.optional(),
  originalUrl: z.string().optional(),
  shortCode: z.string().optional(),
});
export type UpdateLinkBody = z.infer<typeof updateLinkBody>;

export const linkSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  originalUrl: z.string(),
  shortCode: z.string(),
  shortUrl: z.string(),
  clickCount: z.number().int(),
  createdAt: z.string(),
});
export type Link = z.infer<typeof linkSchema>;

/** DELETE /api/links/{id} */
export const deletedLinkSchema = z.object({ ok: z.literal(true), id: z.string() });

export const availabilitySchema = z.object({ available: z.boolean(), message: z.string() });
export type Availability = z.infer<typeof availabilitySchema>;

const breakdown = z.record(z.string(), z.number().int());
export const linkAnalyticsSchema = z.object({
  deviceBreakdown: breakdown,
  referrerBreakdown: breakdown,
  countryBreakdown: breakdown,
  browserBreakdown: breakdown,
  osBreakdown: breakdown,
  clicksByDay: z.array(z.object({ date: z.string(), clicks: z.number().int() })),
});
export type LinkAnalytics = z.infer<typeof linkAnalyticsSchema>;

export const userAnalyticsSchema = z.object({ totalLinks: z.number().int(), totalClicks: z.number().int() });
export type UserAnalytics = z.infer<typeof userAnalyticsSchema>;

/** POST /api/demo/shorten */
export const demoShortenBody = z.object({ url: z.string({ error: 'is required' }) });
export const demoLinkSchema = z.object({ id: z.string(), shortUrl: z.string(), originalUrl: z.string() });
export type DemoLink = z.infer<typeof demoLinkSchema>;
/** A visitor's demo link redirects this long, unless signing up or in claims it into an account. */
export const DEMO_LINK_LIFETIME_DAYS = 7;
