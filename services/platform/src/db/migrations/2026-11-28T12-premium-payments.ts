import { type Kysely, sql } from 'kysely';

/**
 * The premium slugs' payments, one row each, as the buyer's success page reads them: `complete` once the
 * payment bought the slug, `refunded` once it was given back (the slug no longer the payer's to have, or
 * the refund took it back). The marketplace projection fills it when it is rebuilt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_premium_payments (
      payment_id text PRIMARY KEY,
      slug_id uuid NOT NULL,
      slug text NOT NULL,
      buyer_id uuid NOT NULL,
      amount integer NOT NULL,
      status text NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_premium_payments`.execute(db);
}
