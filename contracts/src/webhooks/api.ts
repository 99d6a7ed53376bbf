import { z } from 'zod';

/** What a webhook may be told of: a link's life, its clicks (batched), and a staff reply to a ticket. */
export const webhookEventTypes = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'ticket.replied',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The type of the delivery that "Send test event" makes: sent whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Endpoints one account may hold: enough for a few integrations, few enough to deliver to promptly. */
export const MAX_WEBHOOKS = 10;
/** An endpoint URL's longest accepted form. */
export const WEBHOOK_URL_MAX = 2048;
/** Deliveries a webhook's log shows, newest first. */
export const WEBHOOK_LOG_SIZE = 100;
/** The header each delivery's signature travels in. */
export const WEBHOOK_SIGNATURE_HEADER = 'Sniplink-Signature';
/** Every signing secret begins so, so a secret scanner (and a person) knows one when it sees it. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** What each event type means, in the words the Profile card and the docs show. */
export const webhookEventLabels = {
  'link.created': 'A link is created',
  'link.updated': 'A link is changed',
  'link.deleted': 'A link is deleted',
  'link.clicked': 'A link is clicked (at most one delivery per link per minute, with the count)',
  'ticket.replied': 'The Support Team replies to your ticket',
} as const satisfies Record<WebhookEventType, string>;

/** `POST /api/webhooks`: where to deliver, and which events. */
export const createWebhookBody = z
  .object({
    url: z
      .string()
      .trim()
      .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
      .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
    events: z
      .array(z.enum(webhookEventTypes))
      .min(1, 'choose at least one event')
      .transform((events) => [...new Set(events)]),
  })
  .meta({ id: 'CreateWebhookBody' });
export type CreateWebhookBody = z.input<typeof createWebhookBody>;

export const webhookStatuses = ['active', 'disabled'] as const;

/** An endpoint as its owner sees it: never the secret. */
export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(webhookEventTypes)),
    /** `disabled` once a delivery failed for 24 hours: nothing is sent until it is made again. */
    status: z.enum(webhookStatuses),
    createdAt: z.string(),
    disabledAt: z.string().nullable(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to a create: the endpoint with its signing secret, shown this once. */
export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().describe('The signing secret (`whsec_…`): shown once') })
  .meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const deletedWebhookSchema = z.object({ ok: z.literal(true), id: z.string() });

/** One attempt to deliver an event, as the delivery log lists it. */
export const webhookAttemptSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    /** The event's id: the receiver's idempotency key (the same on every retry). */
    eventId: z.string(),
    type: z.string(),
    /** The receiver's HTTP status; null when no answer came (refused, timed out, address not allowed). */
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    /** Why no answer came, when none did. */
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** `POST /api/webhooks/:id/test`: the test event is queued; the log shows its delivery. */
export const webhookTestSentSchema = z.object({ ok: z.literal(true), eventId: z.string() });
