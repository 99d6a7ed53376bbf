import { type Kysely, sql } from 'kysely';

/**
 * The billing read model: each user's customer at the payment provider, and one row per
 * subscription with what the user JSON and the admin figures need (filled by the billing projection).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_billing_customers (
      user_id uuid PRIMARY KEY,
      provider text NOT NULL,
      customer_id text NOT NULL,
      recorded_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_billing_customers_customer ON rm_billing_customers (customer_id)`.execute(db);
  await sql`
    CREATE TABLE rm_billing_subscriptions (
      subscription_id text PRIMARY KEY,
      user_id uuid NOT NULL,
      customer_id text NOT NULL,
      plan text NOT NULL,
      status text NOT NULL,
      period_end timestamptz NOT NULL,
      cancel_at_period_end boolean NOT NULL,
      payment_failed boolean NOT NULL,
      amount integer NOT NULL,
      currency text NOT NULL,
      started_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_billing_subscriptions_user ON rm_billing_subscriptions (user_id)`.execute(db);
  await sql`
    CREATE INDEX rm_billing_subscriptions_live ON rm_billing_subscriptions (status, period_end)
    WHERE status IN ('active', 'trialing', 'past_due')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_billing_subscriptions, rm_billing_customers`.execute(db);
}
