import { z } from 'zod';
import { hasVisibleText, optionalVisibleText } from '../text';
import {
  checkTags,
  checkTargetingWhen,
  LINK_PASSWORD_RULE,
  LINK_STATUSES,
  MAX_CLICK_LIMIT,
  MAX_LINK_PASSWORD_LENGTH,
  MAX_TARGETING_RULES,
  TARGETING_DEVICES,
  type TargetingWhen,
  TOO_MANY_RULES,
} from './controls';

export const MAX_URL_LENGTH = 2048;
export const MAX_TITLE_LENGTH = 200;
export { CUSTOM_CODE_RULE, customCodePattern } from './short-codes';

/** A title with nothing visible in it is no title. */
const title = optionalVisibleText(MAX_TITLE_LENGTH).nullable();

/** A password for visitors: kept as given (spaces count), refused when blank or too long. */
const linkPassword = z
  .string()
  .min(1, LINK_PASSWORD_RULE)
  .max(MAX_LINK_PASSWORD_LENGTH, LINK_PASSWORD_RULE)
  .refine(hasVisibleText, LINK_PASSWORD_RULE);

/** Tags as stored: trimmed, lower-cased, repeats dropped; at most 10, each 1-32 letters, digits, - or _. */
const linkTags = z.array(z.string()).transform((tags, context) => {
  const checked = checkTags(tags);
  if (checked.ok) return checked.tags;
  context.issues.push({ code: 'custom', message: checked.problem, input: tags });
  return z.NEVER;
});

/** A rule's conditions as stored (see `checkTargetingWhen`): each list normalized, at least one given. */
const targetingWhen = z
  .record(z.string(), z.unknown(), { error: 'must be an object of conditions' })
  .transform((when, context): TargetingWhen => {
    const checked = checkTargetingWhen(when);
    if (checked.ok) return checked.value;
    context.issues.push({ code: 'custom', message: checked.problem, input: when });
    return z.NEVER;
  });

/** One targeting rule as a create or an edit gives it; its URL is checked as a target by the server. */
const targetingRuleInput = z.object({
  when: targetingWhen,
  url: z.string({ error: 'is required' }),
});

/**
 * The controls a create or an edit may set; `null` clears one. `expiresAt` must be in the future;
 * `fallbackUrl` is where visitors go once the link expired (by time or by clicks) instead of the expired page.
 */
const linkControls = {
  password: linkPassword
    .nullable()
    .optional()
    .describe('Sets the password visitors must give; null removes it'),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
    .nullable()
    .optional()
    .describe('After this instant the link answers its fallback URL or the expired page'),
  maxClicks: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_CLICK_LIMIT, `must be at most ${MAX_CLICK_LIMIT}`)
    .nullable()
    .optional()
    .describe('Human clicks the link redirects before it expires'),
  fallbackUrl: z.string().nullable().optional().describe('Where an expired link sends visitors'),
  paused: z.boolean().optional().describe('A paused link shows the paused page and counts no click'),
  tags: linkTags.optional().describe('Replaces the tags'),
  rules: z
    .array(targetingRuleInput)
    .max(MAX_TARGETING_RULES, TOO_MANY_RULES)
    .nullable()
    .optional()
    .describe(
      'Replaces the targeting rules (the first that matches a visitor wins); null or [] removes them',
    ),
};

/** POST /api/links */
export const createLinkBody = z
  .object({
    originalUrl: z.string({ error: 'is required' }),
    title: title.optional(),
    shortCode: z.string().optional(),
    ...linkControls,
  })
  .meta({ id: 'CreateLinkBody' });
export type CreateLinkBody = z.infer<typeof createLinkBody>;

/** PATCH /api/links/{id}: an absent field is unchanged; a null or blank title clears it, as null clears a control. */
export const updateLinkBody = z
  .object({
    title: title.optional(),
    originalUrl: z.string().optional(),
    shortCode: z.string().optional(),
    ...linkControls,
  })
  .meta({ id: 'UpdateLinkBody' });
export type UpdateLinkBody = z.infer<typeof updateLinkBody>;

/** A targeting rule as the link JSON has it. */
export const targetingRuleSchema = z
  .object({
    when: z.object({
      country: z.array(z.string()).optional(),
      device: z.array(z.enum(TARGETING_DEVICES)).optional(),
      language: z.array(z.string()).optional(),
    }),
    url: z.string(),
  })
  .meta({ id: 'TargetingRule' });

export const linkSchema = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    originalUrl: z.string(),
    shortCode: z.string(),
    shortUrl: z.string(),
    clickCount: z.number().int(),
    createdAt: z.string(),
    /** Whether visitors must give a password (the password itself never leaves the server). */
    hasPassword: z.boolean(),
    /** ISO instant after which the link is expired, or null. */
    expiresAt: z.string().nullable(),
    /** Human clicks the link redirects before it expires, or null. */
    maxClicks: z.number().int().nullable(),
    /** Human clicks counted against `maxClicks` (those made while a limit is set), or null without a limit. */
    clicksUsed: z.number().int().nullable(),
    /** Where an expired link sends visitors (else the expired page), or null. */
    fallbackUrl: z.string().nullable(),
    paused: z.boolean(),
    /** Lower-case, in the order given. */
    tags: z.array(z.string()),
    /** Targeting rules in order: the first whose conditions all hold sends the visitor to its `url`. */
    rules: z.array(targetingRuleSchema),
    /** `active` redirects; `paused` shows the paused page; `expired`: past `expiresAt` or `maxClicks` used up. */
    status: z.enum(LINK_STATUSES),
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

/** GET /api/links/tags: each tag on the user's links, with how many links carry it. */
export const linkTagCountSchema = z
  .object({ tag: z.string(), count: z.number().int() })
  .meta({ id: 'LinkTagCount' });
export type LinkTagCount = z.infer<typeof linkTagCountSchema>;
