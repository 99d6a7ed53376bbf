import type { Database } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';

/** Minutes between consecutive accounts (links) modulo a year's: coprime with it, so every quarter hour gets some. */
const USER_STRIDE = 7919;
const LINK_STRIDE = 104_729;

export interface SyntheticPlatform {
  users: number;
  links: number;
  /** Human clicks, spread evenly over the links (a whole number per link). */
  clicks: number;
  /** Every account, link and click is dated in the year before this instant. */
  now: Date;
}

/**
 * Seeds a site of `users` accounts, `links` links and `clicks` clicks straight into the read models (no
 * events behind them), for `bench:admin`: the users, links, billing and click analytics tables, and the admin
 * Overview's counts made consistent with them, added to what the projections already hold (say, the
 * bench's admin). Accounts: 1 in 200 erased, 1 in 10 paying (a third of them yearly), 1 in 50 with a
 * canceled subscription, 1 in 1,000 Pro by an operator's grant. Links: 1 in 20 deleted. All in a few
 * generate_series statements.
 */
export async function loadSyntheticPlatform(db: Kysely<Database>, site: SyntheticPlatform): Promise<void> {
  const { users, links, now } = site;
  const perLink = Math.floor(site.clicks / links);
  const userId = (i: ReturnType<typeof sql>) => sql`md5('bench-user-' || ${i})::uuid`;
  const minutesAgo = (i: ReturnType<typeof sql>, stride: number) =>
    sql`${now}::timestamptz - ((${i}::bigint * ${stride}) % 525600) * interval '1 minute'`;
  await sql`
    INSERT INTO rm_users (user_id, email, email_normalized, first_name, last_name, subscription_status,
      subscription_plan, erased, links_created_this_month, created_at, updated_at, last_revision)
    SELECT ${userId(sql`i`)},
      CASE WHEN i % 200 = 0 THEN NULL ELSE 'user' || i || '@example.com' END,
      CASE WHEN i % 200 = 0 THEN NULL ELSE 'user' || i || '@example.com' END,
      CASE WHEN i % 200 = 0 THEN NULL ELSE 'First' || i END,
      CASE WHEN i % 200 = 0 THEN NULL ELSE 'Last' || i END,
      CASE WHEN i % 1000 = 3 THEN 'active' ELSE 'inactive' END,
      CASE WHEN i % 1000 = 3 THEN 'monthly' END,
      i % 200 = 0, i % 6, ${minutesAgo(sql`i`, USER_STRIDE)}, ${now}, 0
    FROM generate_series(1, ${users}::int) AS i`.execute(db);
  await sql`
    INSERT INTO rm_billing_subscriptions (subscription_id, user_id, customer_id, plan, status, period_end,
      cancel_at_period_end, payment_failed, amount, currency, started_at, updated_at, last_revision)
    SELECT 'sub_bench_' || i, ${userId(sql`i`)}, 'cus_bench_' || i,
      CASE WHEN i % 3 = 0 THEN 'yearly' ELSE 'monthly' END,
      CASE WHEN i % 10 = 1 THEN 'active' ELSE 'canceled' END,
      ${now}::timestamptz + CASE WHEN i % 10 = 1 THEN interval '20 days' ELSE interval '-20 days' END,
      false, false, CASE WHEN i % 3 = 0 THEN 2000 ELSE 200 END, 'usd', ${now}, ${now}, 0
    FROM generate_series(1, ${users}::int) AS i WHERE i % 10 = 1 OR i % 50 = 2`.execute(db);
  // The user streams' mirror (`PaidPlanSynced`) holds the subscriptions that have not ended.
  await sql`
    INSERT INTO rm_paid_periods (user_id, subscription_id, plan, status, period_end, cancel_at_period_end)
    SELECT user_id, subscription_id, plan, status, period_end, cancel_at_period_end
    FROM rm_billing_subscriptions WHERE subscription_id LIKE 'sub_bench_%' AND status <> 'canceled'`.execute(
    db,
  );
  await sql`
    INSERT INTO rm_links (link_id, owner_id, code, code_lower, original_url, title, origin, created_at,
      updated_at, deleted, last_revision)
    SELECT md5('bench-link-' || i)::uuid, ${userId(sql`(i % ${users}) + 1`)}::text, 'b' || i, 'b' || i,
      'https://shop.example.com/products/' || i, NULL, 'dashboard', ${minutesAgo(sql`i`, LINK_STRIDE)}, ${now},
      i % 20 = 0, 0
    FROM generate_series(1, ${links}::int) AS i`.execute(db);
  // Each link's clicks at one instant after its creation: the per-link total, its hour, its quarter.
  await sql`
    CREATE TEMPORARY TABLE bench_clicks AS
    SELECT link_id, least(${now}::timestamptz, created_at + ((hashtext(link_id::text) & 1023) * interval '1 minute')) AS at
    FROM rm_links WHERE link_id = md5('bench-link-' || substr(code, 2))::uuid`.execute(db);
  await sql`
    INSERT INTO rm_link_clicks (link_id, clicks, bot_clicks, last_click_at)
    SELECT link_id, ${perLink}, 0, at FROM bench_clicks`.execute(db);
  await sql`
    INSERT INTO rm_click_buckets (link_id, hour, dimension, label, clicks)
    SELECT link_id, date_trunc('hour', at), 'total', 'all', ${perLink} FROM bench_clicks`.execute(db);
  await sql`
    INSERT INTO rm_platform_click_quarters (quarter, clicks)
    SELECT to_timestamp(floor(extract(epoch FROM at) / 900) * 900), count(*) * ${perLink}
    FROM bench_clicks GROUP BY 1
    ON CONFLICT (quarter) DO UPDATE SET clicks = rm_platform_click_quarters.clicks + excluded.clicks`.execute(
    db,
  );
  await sql`
    INSERT INTO rm_platform_clicks (clicks) SELECT count(*) * ${perLink} FROM bench_clicks
    ON CONFLICT (singleton) DO UPDATE SET clicks = rm_platform_clicks.clicks + excluded.clicks`.execute(db);
  await sql`DROP TABLE bench_clicks`.execute(db);
  await addOverviewCounts(db, site, minutesAgo);
  const seeded = [
    'rm_users',
    'rm_links',
    'rm_billing_subscriptions',
    'rm_paid_periods',
    'rm_link_clicks',
    'rm_click_buckets',
  ];
  for (const table of [...seeded, 'rm_admin_activity', 'rm_admin_granted_users', 'rm_admin_erased_users'])
    await sql`ANALYZE ${sql.table(table)}`.execute(db);
}

/** The admin-stats projection's tables, as the seeded rows' events would have left them. */
async function addOverviewCounts(
  db: Kysely<Database>,
  { users, links }: SyntheticPlatform,
  created: (i: ReturnType<typeof sql>, stride: number) => ReturnType<typeof sql>,
) {
  await sql`
    INSERT INTO rm_admin_activity (quarter, signups, links_created)
    SELECT to_timestamp(floor(extract(epoch FROM at) / 900) * 900), sum(signups), sum(links_created)
    FROM (
      SELECT ${created(sql`i`, USER_STRIDE)} AS at, 1 AS signups, 0 AS links_created
      FROM generate_series(1, ${users}::int) AS i
      UNION ALL
      SELECT ${created(sql`i`, LINK_STRIDE)}, 0, 1 FROM generate_series(1, ${links}::int) AS i
    ) AS seeded
    GROUP BY 1
    ON CONFLICT (quarter) DO UPDATE SET signups = rm_admin_activity.signups + excluded.signups,
      links_created = rm_admin_activity.links_created + excluded.links_created`.execute(db);
  await sql`
    INSERT INTO rm_admin_totals (users, links, applied_commit, applied_prepare)
    VALUES (${users - Math.floor(users / 200)}, ${links - Math.floor(links / 20)}, -1, -1)
    ON CONFLICT (singleton) DO UPDATE SET users = rm_admin_totals.users + excluded.users,
      links = rm_admin_totals.links + excluded.links`.execute(db);
  await sql`
    INSERT INTO rm_admin_granted_users (user_id)
    SELECT md5('bench-user-' || i)::uuid FROM generate_series(1, ${users}::int) AS i WHERE i % 1000 = 3`.execute(
    db,
  );
  await sql`
    INSERT INTO rm_admin_erased_users (user_id)
    SELECT md5('bench-user-' || i)::uuid FROM generate_series(1, ${users}::int) AS i WHERE i % 200 = 0`.execute(
    db,
  );
}
