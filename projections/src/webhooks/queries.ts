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

/** The links among these whose owner has a live endpoint subscribed to `link.clicked`. */
export async function linksWithClickSubscribers(
  db: Kysely<WebhookDatabase>,
  linkIds: readonly string[],
): Promise<string[]> {
  if (linkIds.length === 0) return [];
  const rows = await sql<{ link_id: string }>`
    SELECT DISTINCT l.link_id FROM rm_webhook_links l
    JOIN webhooks w ON w.user_id::text = l.owner_id
    WHERE l.link_id = ANY (${linkIds}::uuid[]) AND NOT l.deleted
      AND w.status = 'active' AND 'link.clicked' = ANY (w.events)`.execute(db);
  return rows.rows.map((row) => row.link_id);
}

/** A link's owner and its fields as a webhook payload names them, or undefined once unknown. */
export const webhookLink = (db: Kysely<WebhookDatabase>, linkId: string) =>
  db.selectFrom('rm_webhook_links').selectAll().where('link_id', '=', linkId).executeTakeFirst();

/** Whether any live endpoint subscribes to `link.clicked`. */
export async function anyClickSubscription(db: Kysely<WebhookDatabase>): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .select('webhook_id')
    .where('status', '=', 'active')
    .where(sql<boolean>`'link.clicked' = ANY (events)`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves the `link.clicked` counter's offsets to these (the stream's end), in one statement that writes
 * nothing once a subscription exists: a subscription made meanwhile keeps every click after it.
 */
export async function skipClicksWhileUnsubscribed(
  db: Kysely<WebhookDatabase>,
  offsets: ReadonlyMap<number, bigint>,
): Promise<void> {
  if (offsets.size === 0) return;
  const partitions = [...offsets.keys()];
  const next = partitions.map((partition) => String(offsets.get(partition)));
  await sql`
    INSERT INTO webhook_click_offsets (partition, next_offset)
    SELECT p, o FROM unnest(${partitions}::int[], ${next}::bigint[]) AS t(p, o)
    WHERE NOT EXISTS (
      SELECT 1 FROM webhooks WHERE status = 'active' AND 'link.clicked' = ANY (events))
    ON CONFLICT (partition) DO UPDATE SET next_offset = GREATEST(webhook_click_offsets.next_offset, EXCLUDED.next_offset)`.execute(
    db,
  );
}
