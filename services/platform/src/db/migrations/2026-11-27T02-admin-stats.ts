import { type Kysely, sql } from 'kysely';

/**
 * The admin Overview's read models: counts kept up to date as events and clicks come, so that
 * no request counts over a whole table. Activity is counted per quarter hour (UTC): every time zone's
 * offset today is a multiple of 15 minutes, so "today" and "this month" in any zone are a range of
 * whole quarters (at most ~3,000 rows for a month).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Filled by the `admin-stats` projection from the event log (emptied and refilled by a rebuild).
  // One row: accounts registered and not erased, links created and not deleted, and the position of
  // the last event applied (an event at or before it is a redelivery and changes nothing).
  await sql`
    CREATE TABLE rm_admin_totals (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      users bigint NOT NULL,
      links bigint NOT NULL,
      applied_commit bigint NOT NULL,
      applied_prepare bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE rm_admin_activity (
      quarter timestamptz PRIMARY KEY,
      signups bigint NOT NULL,
      links_created bigint NOT NULL
    )`.execute(db);
  // Accounts that are Pro by an operator's grant (the user stream's SubscriptionStarted), and erased
  // accounts: few rows each, so a figure of "users who are not Pro" reads them whole.
  await sql`CREATE TABLE rm_admin_granted_users (user_id uuid PRIMARY KEY)`.execute(db);
  await sql`CREATE TABLE rm_admin_erased_users (user_id uuid PRIMARY KEY)`.execute(db);

  // Filled by the click analytics consumer, in the transaction that stores its offsets: human clicks
  // of the whole platform, per quarter hour and in all.
  await sql`
    CREATE TABLE rm_platform_click_quarters (
      quarter timestamptz PRIMARY KEY,
      clicks bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE rm_platform_clicks (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      clicks bigint NOT NULL
    )`.execute(db);
  // The clicks counted before this migration: their hours are known (not their quarters), so each
  // hour's clicks go to its first quarter; the total is exact.
  await sql`
    INSERT INTO rm_platform_click_quarters (quarter, clicks)
    SELECT hour, sum(clicks) FROM rm_click_buckets WHERE dimension = 'total' GROUP BY hour`.execute(db);
  await sql`
    INSERT INTO rm_platform_clicks (clicks)
    SELECT coalesce(sum(clicks), 0) FROM rm_link_clicks`.execute(db);
  await sql`ALTER TABLE rm_platform_click_quarters SET (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE rm_platform_clicks, rm_platform_click_quarters, rm_admin_erased_users,
      rm_admin_granted_users, rm_admin_activity, rm_admin_totals`.execute(db);
}
