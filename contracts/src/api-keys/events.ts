import { z } from 'zod';
import { encrypted } from '../accounts/events';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { apiKeyScopes } from './scopes';

/** Who ended a key: its owner, an admin in the console, or the account's erasure. */
export const apiKeyRevokers = ['owner', 'admin', 'erasure'] as const;
export type ApiKeyRevoker = (typeof apiKeyRevokers)[number];

/** A user's API keys, `apikeys-{userId}`: one stream per account, so its rules (how many keys) hold. */
export const apiKeyStream = stream('apikeys');

/**
 * Events of a user's key stream. The secret and its hash are never in the log (the hash lives in the
 * operational `api_keys` table, deleted with the key); the name is the user's words, so it is ciphertext
 * under their key and unreadable once the account is erased.
 */
export const apiKeyEvents = eventGroup(
  defineEvent({
    type: 'ApiKeyCreated',
    version: 1,
    schema: z.object({
      keyId: z.uuid(),
      name: encrypted,
      scopes: z.array(z.enum(apiKeyScopes)).min(1),
      /** What the user recognises it by: `sk_live_` and its first and last characters. */
      hint: z.string().max(40),
      expiresAt: z.iso.datetime().nullable(),
    }),
  }),
  defineEvent({
    type: 'ApiKeyRevoked',
    version: 1,
    schema: z.object({ keyId: z.uuid(), by: z.enum(apiKeyRevokers) }),
  }),
);
export type ApiKeyEvent = EventsIn<typeof apiKeyEvents>;
