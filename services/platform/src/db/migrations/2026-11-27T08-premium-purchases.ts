import { type Kysely, sql } from 'kysely';

/**
 * Premium purchases: the catalogue's read model learns holds, sales and what each sale took;
 * the local test provider keeps its one-off payments (PaymentIntents) in a table of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE rm_premium_slugs
      ADD COLUMN held_until timestamptz,
      ADD COLUMN payment_id text,
      ADD COLUMN paid_cents integer NOT NULL DEFAULT 0`.execute(db);
  await sql`CREATE INDEX rm_premium_slugs_payment ON rm_premium_slugs (payment_id) WHERE payment_id IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE TABLE local_pay_payment_intents (
      id text PRIMARY KEY,
      idempotency_key text NOT NULL UNIQUE,
      client_secret text NOT NULL,
      amount integer NOT NULL,
      currency text NOT NULL,
      metadata text NOT NULL,
      status text NOT NULL,
      refund_id text,
      created_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE local_pay_payment_intents`.execute(db);
  await sql`
    ALTER TABLE rm_premium_slugs DROP COLUMN held_until, DROP COLUMN payment_id, DROP COLUMN paid_cents`.execute(
    db,
  );
}
