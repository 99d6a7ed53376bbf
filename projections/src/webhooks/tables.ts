import type { Int8 } from '@sniplink/platform';
import type { ColumnType, Generated } from 'kysely';

/**
 * Whose link or ticket an event is about, written by `webhookOutboxProjection`: link events after the
 * first carry no owner, and a staff reply carries no ticket owner. Its migration is `…28T17-webhooks`.
 */
export type WebhookReadModelTables = {
  rm_webhook_links: RmWebhookLinksTable;
  rm_webhook_tickets: RmWebhookTicketsTable;
};

export interface RmWebhookLinksTable {
  link_id: string;
  /** A user id, or `visitor-{id}` for a demo link (no webhook ever belongs to one). */
  owner_id: string;
  code: string;
  original_url: string;
  title: string | null;
  deleted: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface RmWebhookTicketsTable {
  ticket_id: string;
  user_id: string;
}

/** The webhooks feature's operational tables (never emptied by a rebuild): endpoints, outbox, log, clicks. */
export type WebhookTables = {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_click_offsets: WebhookClickOffsetsTable;
  webhook_click_windows: WebhookClickWindowsTable;
};

export interface WebhooksTable {
  webhook_id: string;
  user_id: string;
  url: string;
  events: string[];
  secret: string;
  status: ColumnType<'active' | 'disabled', 'active' | 'disabled' | undefined, 'active' | 'disabled'>;
  created_at: Date;
  disabled_at: Date | null;
}

export interface WebhookDeliveriesTable {
  delivery_id: Generated<string>;
  webhook_id: string;
  /** The receiver's idempotency key: the log event's id, or the click window's. */
  event_id: string;
  type: string;
  /** The JSON body exactly as signed and sent: every retry sends the same bytes. */
  body: string;
  status: ColumnType<
    'pending' | 'delivered' | 'failed',
    'pending' | undefined,
    'pending' | 'delivered' | 'failed'
  >;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Date;
  next_attempt_at: Date;
}

export interface WebhookAttemptsTable {
  attempt_id: Generated<Int8>;
  webhook_id: string;
  event_id: string;
  type: string;
  at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface WebhookClickOffsetsTable {
  partition: number;
  next_offset: Int8;
}

export interface WebhookClickWindowsTable {
  link_id: string;
  window_start: Date;
  clicks: number;
}
