import { type Kysely, sql } from 'kysely';

/**
 * The local test payment provider's own state (the embedded default's stand-in for Stripe, never in
 * production): its customers, checkout sessions, subscriptions, portal sessions (only the token's SHA-256)
 * and the Stripe-shaped events it has made, kept until the webhook route has taken each one.
 * Operational tables, not read models: no projection writes them and no rebuild touches them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE local_pay_customers (
      id text PRIMARY KEY,
      user_id text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE local_pay_checkout_sessions (
      id text PRIMARY KEY,
      idempotency_key text NOT NULL UNIQUE,
      customer_id text NOT NULL REFERENCES local_pay_customers (id),
      user_id text NOT NULL,
      plan text NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE local_pay_subscriptions (
      id text PRIMARY KEY,
      customer_id text NOT NULL REFERENCES local_pay_customers (id),
      user_id text NOT NULL,
      plan text NOT NULL,
      status text NOT NULL,
      amount integer NOT NULL,
      currency text NOT NULL,
      current_period_start timestamptz NOT NULL,
      current_period_end timestamptz NOT NULL,
      cancel_at_period_end boolean NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX local_pay_subscriptions_customer ON local_pay_subscriptions (customer_id, created_at)`.execute(
    db,
  );
  await sql`
    CREATE TABLE local_pay_portal_sessions (
      token_hash text PRIMARY KEY,
      customer_id text NOT NULL REFERENCES local_pay_customers (id),
      return_url text NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE local_pay_events (
      seq bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      payload text NOT NULL,
      created_at timestamptz NOT NULL,
      delivered_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX local_pay_events_pending ON local_pay_events (seq) WHERE delivered_at IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'local_pay_events',
    'local_pay_portal_sessions',
    'local_pay_subscriptions',
    'local_pay_checkout_sessions',
    'local_pay_customers',
  ]) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
