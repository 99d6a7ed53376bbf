import { z } from 'zod';
import { encrypted } from '../accounts/events';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { webhookEventTypes } from './api';

/** Who ended an endpoint: its owner, or the account's erasure. */
export const webhookDeleters = ['owner', 'erasure'] as const;

/** A user's webhooks, `webhooks-{userId}`: one stream per account, so its rules (how many) hold. */
export const webhookStream = stream('webhooks');

/**
 * Events of a user's webhook stream, each with the acting user in its metadata. The signing secret is never
 * in the log (it lives in the operational `webhooks` table, deleted with the endpoint); the URL may carry
 * the user's own tokens, so it is ciphertext under their key.
 */
export const webhookEvents = eventGroup(
  defineEvent({
    type: 'WebhookCreated',
    version: 1,
    schema: z.object({
      webhookId: z.uuid(),
      url: encrypted,
      events: z.array(z.enum(webhookEventTypes)).min(1),
    }),
  }),
  defineEvent({
    type: 'WebhookDeleted',
    version: 1,
    schema: z.object({ webhookId: z.uuid(), by: z.enum(webhookDeleters) }),
  }),
  defineEvent({ type: 'WebhookSecretRotated', version: 1, schema: z.object({ webhookId: z.uuid() }) }),
  /** Deliveries failed for the whole retry window: nothing more is sent to it. */
  defineEvent({
    type: 'WebhookDisabled',
    version: 1,
    schema: z.object({ webhookId: z.uuid(), failingSince: z.iso.datetime() }),
  }),
);
export type WebhookEvent = EventsIn<typeof webhookEvents>;
