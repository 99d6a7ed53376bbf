import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { noLinkControls } from '@sniplink/test-support/links';
import { until } from '@sniplink/test-support/until';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../services/standalone/src/features';

/**
 * Today's app started on a database the previous release wrote: test/fixtures/upgrade/<RELEASE>.sql.gz,
 * made by scripts/make-upgrade-fixture.ts driving that release (which says how to make the next one), and
 * <RELEASE>.json, what that release showed its users and admin.
 */
const RELEASE = 'v0.9.0';
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/upgrade');
const REBUILD_CLI = path.resolve(
  import.meta.dirname,
  '../services/standalone/src/cli/rebuild-projections.ts',
);

interface Seen {
  email: string;
  user: Record<string, unknown> & { linkAllowance: { period: string; limit: number } };
  links: { id: string; shortCode: string; clickCount: number }[];
  analytics: unknown;
  linkAnalytics: Record<string, { clicksByDay: { date: string; clicks: number }[] }>;
  tickets: unknown[];
}
interface Fixture {
  madeAt: string;
  password: string;
  users: Record<'admin' | 'ada' | 'bob', Seen>;
  erased: { id: string; email: string; loginStatus: number; shortCodes: string[] };
  adminConfig: unknown[];
  adminUsers: { users: Record<string, unknown>[]; total: number };
  ticketMessages: unknown[];
  redirects: Record<string, string>;
}

/** The dump as node-postgres runs it: pg_dump's psql meta-commands (`\restrict`) are for psql alone. */
async function loadDump(database: TestDatabase, dump: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    await client.query(
      dump
        .split('\n')
        .filter((line) => !line.startsWith('\\'))
        .join('\n'),
    );
  } finally {
    await client.end();
  }
}

/**
 * On the server that wrote it, a database's transaction counter is past every transaction id its event log
 * holds (`es_events.transaction_id`, the log's order); a fresh server the dump is loaded into may not be
 * there yet, and until it is, the event store hides those events as still in flight. This moves the
 * loading server's counter past them, one transaction each, as the writing server's was: an upgrade runs
 * on the server the old release used. (Restoring a dump into a newer cluster meets the same: see
 * docs/operations.md.)
 */
async function passLoggedTransactions(database: TestDatabase): Promise<void> {
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ missing: string }>(
      `SELECT (SELECT coalesce(max(transaction_id::text::bigint), 0) FROM es_events)
              - pg_current_xact_id()::text::bigint AS missing`,
    );
    const missing = Number(rows[0]?.missing ?? 0);
    if (missing > 1_000_000)
      throw new Error(`the fixture's log is ${missing} transactions ahead of this server`);
    for (let i = 0; i <= missing; i++) await client.query('SELECT pg_current_xact_id()');
  } finally {
    await client.end();
  }
}

/** `npm run projections:rebuild` on `database`: it migrates it too, as every process does at start. */
async function rebuild(database: TestDatabase): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', REBUILD_CLI], {
    env: { ...process.env, DATABASE_URL: database.connectionString, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`projections:rebuild exited ${code}:\n${output}`);
}

/** Every read-model table's rows, each as JSON, in a stable order. */
async function readModels(database: TestDatabase): Promise<Record<string, string[]>> {
  const { rows: tables } = await database.pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_name LIKE 'rm\\_%' ORDER BY table_name`,
  );
  const result: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await database.pool.query<{ row: string }>(
      `SELECT to_jsonb(t)::text AS row FROM "${name}" t ORDER BY 1`,
    );
    result[name] = rows.map((row) => row.row);
  }
  return result;
}

/** A signed-in user's session against the upgraded app, with a cookie jar of one cookie. */
class Session {
  private cookie = '';
  constructor(private readonly app: AppProcess) {}

  async call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${this.app.baseUrl}${url}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const sid = response.headers.getSetCookie().find((header) => header.startsWith('sid='));
    if (sid) this.cookie = sid.split(';')[0] ?? '';
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async get(url: string): Promise<unknown> {
    const { status, body } = await this.call('GET', url);
    expect(status, `GET ${url}`).toBe(200);
    return body;
  }
}

/** The UTC month of an ISO instant: allowances of Pro and "created this month" count within one. */
const monthOf = (iso: string) => iso.slice(0, 7);

describe(`upgrading from ${RELEASE}`, () => {
  let fixture: Fixture;
  let upgraded: TestDatabase;
  let rebuilt: TestDatabase;
  let app: AppProcess;
  let dataDir: string;
  /** Whether this runs in the UTC month the fixture was made in (month-bound figures still apply). */
  let sameMonth: boolean;

  beforeAll(async () => {
    fixture = JSON.parse(await readFile(path.join(FIXTURES, `${RELEASE}.json`), 'utf8')) as Fixture;
    sameMonth = monthOf(fixture.madeAt) === monthOf(new Date().toISOString());
    const dump = gunzipSync(await readFile(path.join(FIXTURES, `${RELEASE}.sql.gz`))).toString('utf8');
    [upgraded, rebuilt] = await Promise.all([
      createTestDatabase({ migrate: false, poolSize: 4 }),
      createTestDatabase({ migrate: false, poolSize: 4 }),
    ]);
    await Promise.all([loadDump(upgraded, dump), loadDump(rebuilt, dump)]);
    // Both databases are on one server, so one counter: moved once, it is past both logs.
    await passLoggedTransactions(upgraded);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-upgrade-'));
    [app] = await Promise.all([
      startAppProcess({ DATABASE_URL: upgraded.connectionString, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
      rebuild(rebuilt),
    ]);
    // Started: now every read model has caught up with the log, and the clicks are all counted.
    const caughtUp = await until(
      async () =>
        (await (await fetch(`${app.baseUrl}/readyz`)).json()) as {
          checks: {
            projections: { behind: Record<string, number | string> };
            clickAnalytics: { behind: number };
          };
        },
      ({ checks }) =>
        Object.values(checks.projections.behind).every((behind) => behind === 0) &&
        checks.clickAnalytics.behind === 0,
      20_000,
      100,
    );
    const behind = Object.values(caughtUp.checks.projections.behind);
    expect(behind.length, 'read models the app runs').toBeGreaterThan(0);
    expect(
      behind.every((each) => each === 0),
      'every read model caught up',
    ).toBe(true);
    expect(caughtUp.checks.clickAnalytics.behind, 'clicks not yet counted').toBe(0);
  }, 90_000);

  afterAll(async () => {
    if (app) expect(await app.stop()).toBe(0);
    await upgraded?.drop();
    await rebuilt?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("has applied today's migrations, each once, at the app's start", async () => {
    const { rows } = await upgraded.pool.query<{ name: string }>(
      'SELECT name FROM kysely_migration ORDER BY name',
    );
    expect(rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
  });

  it('keeps every read model as a rebuild from the event log makes it', async () => {
    const [after, fromLog] = await Promise.all([readModels(upgraded), readModels(rebuilt)]);
    expect(Object.keys(after)).toEqual(Object.keys(fromLog));
    // Not empty: the users, their links and their clicks are there to compare.
    for (const table of ['rm_users', 'rm_links', 'rm_link_clicks']) {
      expect(after[table]?.length, table).toBeGreaterThan(0);
    }
    expect(after).toEqual(fromLog);
  });

  it('lets every user sign in and see their links, clicks, analytics and tickets as before', async () => {
    for (const [name, seen] of Object.entries(fixture.users)) {
      const session = new Session(app);
      const login = await session.call('POST', '/api/auth/login', {
        email: seen.email,
        password: fixture.password,
      });
      expect(login.status, `${name} signs in`).toBe(200);

      const { linksCreatedThisMonth, linkAllowance, ...user } = seen.user;
      expect(await session.get('/api/auth/user'), name).toMatchObject({
        ...user,
        linkAllowance: { limit: linkAllowance.limit, period: linkAllowance.period },
        ...(sameMonth ? { linksCreatedThisMonth, linkAllowance } : {}),
      });
      expect(await session.get('/api/links'), `${name}'s links`).toEqual(
        seen.links.map((link) => ({
          ...link,
          shortUrl: expect.stringMatching(new RegExp(`/s/${link.shortCode}$`)),
          // A link made before links had controls and moderation carries none of them.
          ...noLinkControls,
        })),
      );
      expect(await session.get('/api/analytics/user'), `${name}'s totals`).toEqual(seen.analytics);
      for (const link of seen.links) {
        const { clicksByDay, ...breakdowns } = seen.linkAnalytics[link.id] ?? { clicksByDay: [] };
        const now = (await session.get(`/api/analytics/link/${link.id}`)) as {
          clicksByDay: { date: string; clicks: number }[];
        };
        expect(now, `${name}'s ${link.shortCode}`).toMatchObject(breakdowns);
        // The chart shows the last 30 days: the days recorded that still fall in them, with the same clicks.
        const window = new Set(now.clicksByDay.map((day) => day.date));
        expect(now.clicksByDay.filter((day) => day.clicks > 0)).toEqual(
          clicksByDay.filter((day) => window.has(day.date)),
        );
      }
      expect(await session.get('/api/support/tickets'), `${name}'s tickets`).toEqual(seen.tickets);
    }
  });

  it('shows the admin the same config, users and ticket conversation', async () => {
    const admin = new Session(app);
    await admin.call('POST', '/api/auth/login', {
      email: fixture.users.admin.email,
      password: fixture.password,
    });
    expect(await admin.get('/api/admin/config')).toEqual(fixture.adminConfig);
    const users = (await admin.get('/api/admin/users')) as Fixture['adminUsers'];
    expect(users.total).toBe(fixture.adminUsers.total);
    expect(users.users).toEqual(
      fixture.adminUsers.users.map(({ linksCreatedThisMonth, ...user }) =>
        expect.objectContaining(sameMonth ? { ...user, linksCreatedThisMonth } : user),
      ),
    );
    const ada = new Session(app);
    await ada.call('POST', '/api/auth/login', { email: fixture.users.ada.email, password: fixture.password });
    const [ticket] = (await ada.get('/api/support/tickets')) as { id: string }[];
    expect(await ada.get(`/api/support/tickets/${ticket?.id}/messages`)).toEqual(fixture.ticketMessages);
  });

  it('keeps the erased user erased: no sign-in, no key, nothing of her readable', async () => {
    const login = await new Session(app).call('POST', '/api/auth/login', {
      email: fixture.erased.email,
      password: fixture.password,
    });
    expect(login.status).toBe(fixture.erased.loginStatus);
    const { rows: keys } = await upgraded.pool.query('SELECT 1 FROM user_keys WHERE user_id = $1', [
      fixture.erased.id,
    ]);
    expect(keys).toEqual([]);
    const { rows } = await upgraded.pool.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM rm_users t WHERE to_jsonb(t)::text ILIKE '%' || $1 || '%') AS found`,
      [fixture.erased.email],
    );
    expect(rows[0]?.found).toBe(false);
  });

  it('redirects every code as before, and counts a new click on top of the old ones', async () => {
    for (const [code, answer] of Object.entries(fixture.redirects)) {
      const response = await fetch(`${app.baseUrl}/s/${code}`, { method: 'HEAD', redirect: 'manual' });
      expect(`${response.status} ${response.headers.get('location') ?? ''}`.trim(), code).toBe(answer);
    }
    const ada = fixture.users.ada;
    const link = ada.links.find((each) => each.clickCount > 0);
    if (!link) throw new Error('the fixture has no clicked link of Ada');
    const click = await fetch(`${app.baseUrl}/s/${link.shortCode}`, {
      redirect: 'manual',
      headers: {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/139.0.0.0 Safari/537.36',
      },
    });
    expect(click.status).toBe(302);
    const session = new Session(app);
    await session.call('POST', '/api/auth/login', { email: ada.email, password: fixture.password });
    const counted = await until(
      async () =>
        ((await session.get('/api/links')) as { id: string; clickCount: number }[]).find(
          (l) => l.id === link.id,
        ),
      (now) => now?.clickCount === link.clickCount + 1,
      15_000,
      200,
    );
    expect(counted?.clickCount).toBe(link.clickCount + 1);
  });
});
