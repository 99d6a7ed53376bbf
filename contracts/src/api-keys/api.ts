import { z } from 'zod';
import { visibleText } from '../text';
import { apiKeyScopes } from './scopes';

/** A key's name fits a line of the list ("CMS", "Deploy script"). */
export const API_KEY_NAME_MAX = 60;
/** Live keys one account may hold: enough for every tool a person scripts, few enough to review. */
export const MAX_API_KEYS = 25;
/** Every key begins so, as Stripe's do, so a secret scanner (and a person) knows one when it sees it. */
export const API_KEY_PREFIX = 'sk_live_';
/** Requests one key may make per minute unless an admin sets `api_keys.requests_per_minute`. */
export const API_KEY_REQUESTS_PER_MINUTE = 60;

/** What each scope allows, in the words the Profile card and the docs show. */
export const apiKeyScopeLabels = {
  'links:read': 'Read links',
  'links:write': 'Create, change and delete links',
  'analytics:read': 'Read analytics',
} as const satisfies Record<(typeof apiKeyScopes)[number], string>;

/** `POST /api/api-keys`: a name, at least one scope, and when it stops working (none: never). */
export const createApiKeyBody = z
  .object({
    name: visibleText(API_KEY_NAME_MAX),
    scopes: z
      .array(z.enum(apiKeyScopes))
      .min(1, 'choose at least one scope')
      .transform((scopes) => [...new Set(scopes)]),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'must be a date and time (ISO 8601)' })
      .nullable()
      .optional(),
  })
  .meta({ id: 'CreateApiKeyBody' });
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

/** A key as its owner (and an admin) sees it: never the secret, only a hint to recognise it by. */
export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(apiKeyScopes)),
    /** `sk_live_` with the secret's first 4 and last 4 characters: `sk_live_AbCd…wxYz`. */
    hint: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to a create: the key with its secret, shown this once and never again. */
export const createdApiKeySchema = apiKeySchema
  .extend({ secret: z.string().describe('The key itself: shown once, stored only as a hash') })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const revokedApiKeySchema = z.object({ ok: z.literal(true), id: z.string() });
export type RevokedApiKey = z.infer<typeof revokedApiKeySchema>;
