import { type Kysely, sql } from 'kysely';

/**
 * The paid periods read model: each user's subscriptions as the user stream last mirrored them
 * (`PaidPlanSynced`), the very events the link allowance is decided from, so what a user, the admin
 * console and the figures see of Pro agrees with what the rules allow. `rm_paid_plans` holds, per user,
 * the user stream's revision last applied; `rm_paid_periods` one row per subscription of the mirror.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_paid_plans (
      user_id uuid PRIMARY KEY,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE rm_paid_periods (
      user_id uuid NOT NULL,
      subscription_id text NOT NULL,
      plan text NOT NULL,
      status text NOT NULL,
      period_end timestamptz NOT NULL,
      cancel_at_period_end boolean NOT NULL,
      PRIMARY KEY (user_id, subscription_id)
    )`.execute(db);
  await sql`
    CREATE INDEX rm_paid_periods_live ON rm_paid_periods (status, period_end)
    WHERE status IN ('active', 'trialing', 'past_due')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_paid_periods, rm_paid_plans`.execute(db);
}
