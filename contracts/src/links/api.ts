import { z } from 'zod';
import { optionalVisibleText } from '../text';

export const MAX_URL_LENGTH = 2048;
export const MAX_TITLE_LENGTH = 200;
export { CUSTOM_CODE_RULE, customCodePattern } from './short-codes';

/** A title with nothing visible in it is no title. */
const title = optionalVisibleText(MAX_TITLE_LENGTH).nullable();

/** POST /api/links */
export const createLinkBody = z
  .object({
    originalUrl: z.string({ error: 'is required' }),
    title: title.optional(),
    shortCode: z.string().optional(),
  })
  .meta({ id: 'CreateLinkBody' });
export type CreateLinkBody = z.infer<typeof createLinkBody>;

/** PATCH /api/links/{id}: an absent field is unchanged; a null or blank title clears it. */
export const updateLinkBody = z
  .object({
    title: title.optional(),
    originalUrl: z.string().optional(),
    shortCode: z.string().optional(),
  })
  .meta({ id: 'UpdateLinkBody' });
export type UpdateLinkBody = z.infer<typeof updateLinkBody>;

export const linkSchema = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    originalUrl: z.string(),
    shortCode: z.string(),
    shortUrl: z.string(),
    clickCount: z.number().int(),
    createdAt: z.string(),
    /** The code contains a protected brand: it redirects once an admin approves it. */
    pendingApproval: z.boolean(),
  })
  .meta({ id: 'Link' });
export type Link = z.infer<typeof linkSchema>;

/** DELETE /api/links/{id} */
export const deletedLinkSchema = z
  .object({ ok: z.literal(true), id: z.string() })
  .meta({ id: 'DeletedLink' });

export const availabilitySchema = z
  .object({ available: z.boolean(), message: z.string() })
  .meta({ id: 'Availability' });
export type Availability = z.infer<typeof availabilitySchema>;

/** GET /api/links/limits: the allowances in force (the admin's settings), for every page that names them. */
export const linkLimitsSchema = z
  .object({
    /** Links a Free account may hold at a time. */
    free: z.number().int(),
    /** Links a Pro account may create a UTC month. */
    proMonthly: z.number().int(),
  })
  .meta({ id: 'LinkLimits' });
