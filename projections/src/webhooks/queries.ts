import type { Database } from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { WebhookReadModelTables, WebhookTables } from './tables';

export type { WebhookReadModelTables, WebhookTables } from './tables';

/** The platform's tables with the webhook feature's: what its service, dispatcher and projection use. */
export type WebhookDatabase = Database & WebhookTables & WebhookReadModelTables;

export const webhookDb = (db: Kysely<Database>): Kysely<WebhookDatabase> =>
  db.withTables<WebhookTables & WebhookReadModelTables>();

/**
 * Events older than this are not queued: a rebuild of the projection from the start re-sends at most the
 * last day's events (with their own ids, so a receiver that keeps them ignores them), never a history.
 */
const QUEUE_EVENTS_YOUNGER_THAN = '24 hours';

/** Told when deliveries are queued in this process, so its dispatcher sends them at once. */
export const deliveriesQueued = new EventTarget();
export const announceQueued = () => deliveriesQueued.dispatchEvent(new Event('queued'));

/** One event for a user's endpoints: what every delivery body holds. */
export interface WebhookMessage {
  userId: string;
  /** The idempotency key: the same on every retry. */
  eventId: string;
  type: string;
  time: Date;
  data: Record<string, unknown>;
}

/** The body as signed and sent: `{ id, type, time, data }`. */
export const deliveryBody = (message: WebhookMessage) =>
  JSON.stringify({
    id: message.eventId,
    type: message.type,
    time: message.time.toISOString(),
    data: message.data,
  });

/**
 * Queues the message for each live endpoint of its user that subscribes to its type and existed when it
 * happened; a message queued already for an endpoint (the same event delivered twice) is left alone.
 * `anyType`: every live endpoint gets it (the test event). Returns how many were queued.
 */
export async function queueDeliveries(
  trx: Kysely<WebhookDatabase> | Transaction<WebhookDatabase>,
  message: WebhookMessage,
  options: { webhookId?: string; now?: Date } = {},
): Promise<number> {
  const body = deliveryBody(message);
  const result = await sql`
    INSERT INTO webhook_deliveries (webhook_id, event_id, type, body, created_at, next_attempt_at)
    SELECT webhook_id, ${message.eventId}, ${message.type}, ${body}, ${options.now ?? message.time}, ${options.now ?? message.time}
    FROM webhooks
    WHERE user_id::text = ${message.userId} AND status = 'active'
      AND ${
        options.webhookId
          ? sql`webhook_id = ${options.webhookId}`
          : sql`${message.type} = ANY (events) AND created_at <= ${message.time}
              AND ${message.time}::timestamptz > now() - ${QUEUE_EVENTS_YOUNGER_THAN}::interval`
      }
    ON CONFLICT (webhook_id, event_id) DO NOTHING`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}
