import type { Database } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { monthlyRevenue, proAt } from '../../billing/queries';

/** The Overview's first row of cards (`GET /api/admin/stats`). */
export interface AdminStatsSummary {
  /** Accounts registered and not erased (suspended ones included). */
  totalUsers: number;
  /** Subscriptions that make their user Pro at the instant asked (billing's `revenueOverview`). */
  activeSubscriptions: number;
  /** The accounts' links that exist: created and not deleted (demo links no account holds are `demoLinks`). */
  totalLinks: number;
  /** Demo links made on the landing page that no account holds, not deleted or expired. */
  demoLinks: number;
  /** Human clicks ever counted (bots are redirected, not counted), on links deleted since too. */
  totalClicks: number;
}

/** Every figure of the Overview's "Detailed statistics" (`GET /api/admin/stats/detailed`). */
export interface AdminDetailedStats extends AdminStatsSummary {
  /** Links created since midnight in the time zone (deleted since or not). */
  linksCreatedToday: number;
  /** Human clicks since midnight in the time zone. */
  clicksToday: number;
  /** Sign-ups since the first of the month in the time zone (erased since or not). */
  newUsersThisMonth: number;
  /** Accounts that are not Pro, neither by a subscription nor by an operator's grant. */
  freeUsers: number;
  /** Accounts (not erased) with a subscription that makes them Pro; an operator's grant is not paid. */
  paidUsers: number;
  /** Accounts Pro by an operator's grant alone (no paid subscription): free + paid + granted = total. */
  grantedUsers: number;
  /** The active subscriptions' price per month, in cents (a yearly one's price / 12, the sum rounded once). */
  monthlyRevenue: number;
}

export interface StatsInstant {
  now: Date;
  /** An IANA time zone name PostgreSQL knows: where "today" and "this month" begin. */
  timeZone: string;
}

interface FigureRow {
  total_users: string;
  total_links: string;
  demo_links: string;
  total_clicks: string;
  active_subscriptions: string;
}

interface DetailedRow extends FigureRow {
  links_today: string;
  clicks_today: string;
  signups_month: string;
  paid_users: string;
  granted_only: string;
  monthly_revenue: string;
}

/**
 * The Overview's headline figures: three one-row reads and the subscriptions that are Pro now (an index
 * on the live ones), so the cost does not grow with accounts, links or clicks.
 */
export async function adminStatsSummary(db: Kysely<Database>, now: Date): Promise<AdminStatsSummary> {
  const { rows } = await sql<FigureRow>`
    SELECT ${totals},
      (SELECT count(*) FROM rm_paid_periods WHERE ${proAt(now)}) AS active_subscriptions`.execute(db);
  return summaryOf(rowOf(rows));
}

/**
 * Every detailed figure in one statement. "Today" and "this month" are the quarter hours (UTC) from the
 * zone's last midnight (first of the month) to the next: at most ~3,000 rows of an index, read from
 * `rm_admin_activity` and `rm_platform_click_quarters`. The money figures read the subscriptions that are
 * Pro now, once (whether one still is depends on the instant, so they are not kept as counters): their
 * cost grows with the paying subscriptions, ~10 ms for 10,000 (bench/RESULTS.md, bench:admin).
 */
export async function adminDetailedStats(
  db: Kysely<Database>,
  { now, timeZone }: StatsInstant,
): Promise<AdminDetailedStats> {
  const { rows } = await sql<DetailedRow>`
    WITH local AS (SELECT ${now}::timestamptz AT TIME ZONE ${timeZone} AS at),
    bounds AS (
      SELECT date_trunc('day', at) AT TIME ZONE ${timeZone} AS day_start,
        (date_trunc('day', at) + interval '1 day') AT TIME ZONE ${timeZone} AS day_end,
        date_trunc('month', at) AT TIME ZONE ${timeZone} AS month_start,
        (date_trunc('month', at) + interval '1 month') AT TIME ZONE ${timeZone} AS month_end
      FROM local
    ),
    paid AS (
      SELECT count(*) AS subscriptions, ${monthlyRevenue} AS revenue,
        count(DISTINCT rm_paid_periods.user_id) FILTER (WHERE e.user_id IS NULL) AS users
      FROM rm_paid_periods
        LEFT JOIN rm_billing_subscriptions USING (subscription_id)
        LEFT JOIN rm_admin_erased_users AS e ON e.user_id = rm_paid_periods.user_id
      WHERE ${proAt(now)}
    )
    SELECT ${totals},
      paid.subscriptions AS active_subscriptions, paid.revenue AS monthly_revenue, paid.users AS paid_users,
      (SELECT count(*) FROM rm_admin_granted_users AS g
        WHERE NOT EXISTS (SELECT FROM rm_paid_periods WHERE rm_paid_periods.user_id = g.user_id AND ${proAt(now)}))
        AS granted_only,
      (SELECT coalesce(sum(links_created), 0) FROM rm_admin_activity, bounds
        WHERE quarter >= day_start AND quarter < day_end) AS links_today,
      (SELECT coalesce(sum(signups), 0) FROM rm_admin_activity, bounds
        WHERE quarter >= month_start AND quarter < month_end) AS signups_month,
      (SELECT coalesce(sum(clicks), 0) FROM rm_platform_click_quarters, bounds
        WHERE quarter >= day_start AND quarter < day_end) AS clicks_today
    FROM paid`.execute(db);
  const row = rowOf(rows);
  const summary = summaryOf(row);
  const paidUsers = Number(row.paid_users);
  return {
    ...summary,
    linksCreatedToday: Number(row.links_today),
    clicksToday: Number(row.clicks_today),
    newUsersThisMonth: Number(row.signups_month),
    // Pro by a grant alone is neither free nor paid: its own bucket, so the three add up to the total.
    freeUsers: Math.max(0, summary.totalUsers - paidUsers - Number(row.granted_only)),
    paidUsers,
    grantedUsers: Number(row.granted_only),
    monthlyRevenue: Number(row.monthly_revenue),
  };
}

/** The one-row counts (absent before the first event or click: zero), and the few unclaimed demo links. */
const totals = sql`
  coalesce((SELECT users FROM rm_admin_totals), 0) AS total_users,
  coalesce((SELECT links FROM rm_admin_totals), 0) AS total_links,
  (SELECT count(*) FROM rm_admin_demo_links) AS demo_links,
  coalesce((SELECT clicks FROM rm_platform_clicks), 0) AS total_clicks`;

function rowOf<Row>(rows: Row[]): Row {
  const row = rows[0];
  if (!row) throw new Error('the admin figures query answered no row');
  return row;
}

const summaryOf = (row: FigureRow): AdminStatsSummary => ({
  totalUsers: Number(row.total_users),
  activeSubscriptions: Number(row.active_subscriptions),
  totalLinks: Math.max(0, Number(row.total_links) - Number(row.demo_links)),
  demoLinks: Number(row.demo_links),
  totalClicks: Number(row.total_clicks),
});

/** One day of the Overview's trends, in the time zone asked. */
export interface AdminTrendDay {
  /** The day, `YYYY-MM-DD`, in the time zone. */
  date: string;
  signups: number;
  /** Links accounts created (demo links not). */
  linksCreated: number;
  /** Human clicks. */
  clicks: number;
  /** Cents taken: subscriptions started (their first period) and premium slugs sold (not refunded). */
  revenue: number;
}

interface TrendRow {
  date: string;
  signups: string;
  links_created: string;
  clicks: string;
  revenue: string;
}

/** How many days the Overview's trends cover, today included. */
export const TREND_DAYS = 30;

/**
 * The last 30 days (today included) of sign-ups, links created, clicks and revenue, a row a day, oldest
 * first. Each day is a range of whole quarters of `rm_admin_activity` and `rm_platform_click_quarters` (at
 * most ~2,900 index rows each for the month), and the day's new subscriptions and premium slug sales.
 */
export async function adminTrends(
  db: Kysely<Database>,
  { now, timeZone }: StatsInstant,
): Promise<AdminTrendDay[]> {
  const { rows } = await sql<TrendRow>`
    WITH local_days AS (
      SELECT generate_series(
        date_trunc('day', ${now}::timestamptz AT TIME ZONE ${timeZone}) - ${TREND_DAYS - 1} * interval '1 day',
        date_trunc('day', ${now}::timestamptz AT TIME ZONE ${timeZone}),
        interval '1 day') AS day
    ),
    days AS (
      SELECT day, day AT TIME ZONE ${timeZone} AS day_start,
        (day + interval '1 day') AT TIME ZONE ${timeZone} AS day_end
      FROM local_days
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS date,
      (SELECT coalesce(sum(signups), 0) FROM rm_admin_activity
        WHERE quarter >= day_start AND quarter < day_end) AS signups,
      (SELECT coalesce(sum(links_created), 0) FROM rm_admin_activity
        WHERE quarter >= day_start AND quarter < day_end) AS links_created,
      (SELECT coalesce(sum(clicks), 0) FROM rm_platform_click_quarters
        WHERE quarter >= day_start AND quarter < day_end) AS clicks,
      (SELECT coalesce(sum(amount), 0) FROM rm_billing_subscriptions
        WHERE started_at >= day_start AND started_at < day_end)
      + (SELECT coalesce(sum(amount), 0) FROM rm_premium_payments
        WHERE status = 'complete' AND updated_at >= day_start AND updated_at < day_end) AS revenue
    FROM days ORDER BY day`.execute(db);
  return rows.map((row) => ({
    date: row.date,
    signups: Number(row.signups),
    linksCreated: Number(row.links_created),
    clicks: Number(row.clicks),
    revenue: Number(row.revenue),
  }));
}
