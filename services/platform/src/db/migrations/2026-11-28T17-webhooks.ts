import { type Kysely, sql } from 'kysely';

/**
 * Webhooks. Operational tables: `webhooks` (one row per live endpoint, with its signing secret, which the
 * log never holds), `webhook_deliveries` (the outbox: one row per event per endpoint, pending until the
 * receiver answers 2xx or the retry window ends), `webhook_attempts` (the delivery log), and the click
 * consumer's `webhook_click_offsets` and `webhook_click_windows` (clicks counted per link per window, with
 * the offsets in the same transaction). Read models of the webhook projection: `rm_webhook_links` and
 * `rm_webhook_tickets` (whose link or ticket an event is about).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhooks (
      webhook_id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      url text NOT NULL,
      events text[] NOT NULL,
      secret text NOT NULL,
      status text NOT NULL DEFAULT 'active',
      created_at timestamptz NOT NULL,
      disabled_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX webhooks_by_user ON webhooks (user_id, created_at)`.execute(db);
  await sql`
    CREATE TABLE webhook_deliveries (
      delivery_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      webhook_id uuid NOT NULL REFERENCES webhooks (webhook_id) ON DELETE CASCADE,
      event_id text NOT NULL,
      type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      UNIQUE (webhook_id, event_id)
    )`.execute(db);
  await sql`
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'
  `.execute(db);
  await sql`
    CREATE TABLE webhook_attempts (
      attempt_id bigserial PRIMARY KEY,
      webhook_id uuid NOT NULL REFERENCES webhooks (webhook_id) ON DELETE CASCADE,
      event_id text NOT NULL,
      type text NOT NULL,
      at timestamptz NOT NULL,
      status_code integer,
      duration_ms integer NOT NULL,
      error text
    )`.execute(db);
  await sql`CREATE INDEX webhook_attempts_by_hook ON webhook_attempts (webhook_id, attempt_id)`.execute(db);
  await sql`
    CREATE TABLE webhook_click_offsets (partition integer PRIMARY KEY, next_offset bigint NOT NULL)
  `.execute(db);
  await sql`
    CREATE TABLE webhook_click_windows (
      link_id uuid NOT NULL,
      window_start timestamptz NOT NULL,
      clicks integer NOT NULL,
      PRIMARY KEY (link_id, window_start)
    )`.execute(db);
  await sql`
    CREATE TABLE rm_webhook_links (
      link_id uuid PRIMARY KEY,
      owner_id text NOT NULL,
      code text NOT NULL,
      original_url text NOT NULL,
      title text,
      deleted boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`CREATE TABLE rm_webhook_tickets (ticket_id uuid PRIMARY KEY, user_id uuid NOT NULL)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'rm_webhook_tickets',
    'rm_webhook_links',
    'webhook_click_windows',
    'webhook_click_offsets',
    'webhook_attempts',
    'webhook_deliveries',
    'webhooks',
  ]) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
