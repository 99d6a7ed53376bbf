// Makes the database an upgrade starts from: test/fixtures/upgrade/<release>.sql.gz, written by a released
// Sniplink, and <release>.json, what that release showed its users. test/upgrade.test.ts starts today's
// app on the dump and checks that the users see the same.
//
// It drives the OLD release as its users and operator would, through its HTTP API and its `npm run user:*`
// commands (never through today's code), on a fresh database of the PostgreSQL server DATABASE_URL names,
// then dumps that database with the server's own pg_dump (Debian's PostgreSQL 15 on the build machine, the
// oldest server Sniplink supports, so the dump loads into any later one).
//
// For the next release (say v1.0.0, once tagged):
//   git -C /work/main worktree add /tmp/wt-v1.0.0 v1.0.0 && (cd /tmp/wt-v1.0.0 && npm ci)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//     node --import tsx scripts/make-upgrade-fixture.ts /tmp/wt-v1.0.0 v1.0.0
// then point RELEASE in test/upgrade.test.ts at it (keep the older fixtures while upgrades from them are
// supported). What it does is in `drive` below; a release whose API changed may need it adapted.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { adminQuery } from '@sniplink/test-support/admin-query';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import pg from 'pg';

const repoRoot = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(repoRoot, 'test/fixtures/upgrade');
const PASSWORD = 'correct horse battery';
const ADMIN = 'admin@example.com';

/** Real browsers' user agents and a crawler's: the redirect counts the first as people, the last as a bot. */
const agents = {
  chrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  bot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;
/** A click: who, from where (referrer), and from which address (its country: US, GB, DE). */
type Click = [keyof typeof agents, string | undefined, string];
const US = '8.8.8.8';
const GB = '81.2.69.142';
const DE = '195.50.160.1';

interface Response<T> {
  status: number;
  body: T;
  text: string;
  location: string | null;
}

/** fetch with one site's cookies and JSON bodies: a browser's session, enough of one. */
class Client {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  async request<T = unknown>(method: string, url: string, body?: unknown): Promise<Response<T>> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body: parsed as T, text, location: response.headers.get('location') };
  }

  /** The call's body; anything but `expected` stops the script, saying what the old app answered. */
  async expect<T = unknown>(expected: number, method: string, url: string, body?: unknown): Promise<T> {
    const response = await this.request<T>(method, url, body);
    if (response.status !== expected) {
      throw new Error(`${method} ${url} answered ${response.status}, not ${expected}: ${response.text}`);
    }
    return response.body;
  }
}

interface LinkAnalytics {
  clicksByDay: { date: string; clicks: number }[];
}

interface Link {
  id: string;
  shortCode: string;
  shortUrl: string;
  clickCount: number;
}

/** Runs one of the old release's `npm run …` commands on the fixture's database. */
function oldCommand(oldRoot: string, databaseUrl: string, script: string, args: string[]): string {
  const result = spawnSync('npm', ['run', '--silent', script, '--', ...args], {
    cwd: oldRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`npm run ${script} exited ${result.status}: ${result.stderr}`);
  return result.stdout.trim();
}

async function signUp(baseUrl: string, email: string, firstName: string): Promise<Client> {
  const client = new Client(baseUrl);
  await client.expect(201, 'POST', '/api/auth/register', { email, password: PASSWORD, firstName });
  return client;
}

async function click(app: AppProcess, code: string, [agent, referer, ip]: Click): Promise<void> {
  const response = await fetch(`${app.baseUrl}/s/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': agents[agent], 'x-forwarded-for': ip, ...(referer ? { referer } : {}) },
  });
  if (response.status !== 302) throw new Error(`/s/${code} answered ${response.status}, not 302`);
}

/**
 * Waits until the analytics read model has counted `expected` clicks (people's and bots'), read from the
 * old release's own table: its API shows people's clicks only.
 */
async function clicksCounted(db: pg.Client, expected: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await db.query<{ n: string }>(
      'SELECT coalesce(sum(clicks + bot_clicks), 0)::text AS n FROM rm_link_clicks',
    );
    if (Number(rows[0]?.n) === expected) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]?.n} of ${expected} clicks counted after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What a signed-in user sees: their account, their links, each link's analytics, their tickets. */
async function seenBy(client: Client) {
  const links = await client.expect<Link[]>(200, 'GET', '/api/links');
  const linkAnalytics: Record<string, LinkAnalytics> = {};
  for (const link of links) {
    const answer = await client.expect<LinkAnalytics>(200, 'GET', `/api/analytics/link/${link.id}`);
    // The last 30 days, ending on the day it is asked: the days with clicks are what was recorded.
    linkAnalytics[link.id] = { ...answer, clicksByDay: answer.clicksByDay.filter((day) => day.clicks > 0) };
  }
  return {
    user: await client.expect(200, 'GET', '/api/auth/user'),
    // The short URL's host is the old app's port: the code is what the user keeps.
    links: links.map((link) => ({ ...link, shortUrl: new URL(link.shortUrl).pathname })),
    analytics: await client.expect(200, 'GET', '/api/analytics/user'),
    linkAnalytics,
    tickets: await client.expect(200, 'GET', '/api/support/tickets'),
  };
}

/** Everything the fixture holds, made through the old release; returns what its users and admin saw. */
async function drive(app: AppProcess, oldRoot: string, databaseUrl: string, db: pg.Client) {
  const admin = await signUp(app.baseUrl, ADMIN, 'Grace');
  const ada = await signUp(app.baseUrl, 'ada@example.com', 'Ada');
  const bob = await signUp(app.baseUrl, 'bob@example.com', 'Bob');
  const erin = await signUp(app.baseUrl, 'erin@example.com', 'Erin');

  // Ada, on Free: four links, one with her own code; one edited, one deleted after it was clicked.
  const adaMenu = await ada.expect<Link>(201, 'POST', '/api/links', {
    originalUrl: 'https://example.org/menu/lunch',
    title: 'Lunch menu',
    shortCode: 'ada-menu',
  });
  const adaSale = await ada.expect<Link>(201, 'POST', '/api/links', {
    originalUrl: 'https://example.com/spring-sale?utm_source=flyer',
    title: 'Spring sale',
  });
  const adaGone = await ada.expect<Link>(201, 'POST', '/api/links', {
    originalUrl: 'https://example.net/old',
  });
  await ada.expect<Link>(201, 'POST', '/api/links', { originalUrl: 'https://example.net/never-clicked' });
  await ada.expect(200, 'PATCH', `/api/links/${adaSale.id}`, {
    title: 'Summer sale',
    originalUrl: 'https://example.com/summer-sale?utm_source=flyer',
  });

  // Bob, on Pro (set by the operator, as without payments): two links, one with his own code.
  oldCommand(oldRoot, databaseUrl, 'user:plan', ['bob@example.com', 'monthly']);
  const bobDocs = await bob.expect<Link>(201, 'POST', '/api/links', {
    originalUrl: 'https://docs.example.com/guide',
    title: 'Guide',
    shortCode: 'bob-guide',
  });
  const bobTalk = await bob.expect<Link>(201, 'POST', '/api/links', {
    originalUrl: 'https://talks.example.com/2026',
  });

  // Erin: one link, clicked, then her account is erased.
  const erinLink = await erin.expect<Link>(201, 'POST', '/api/links', {
    originalUrl: 'https://erin.example.com/portfolio',
    title: 'Portfolio',
    shortCode: 'erin-work',
  });

  const clicks: [Link, Click[]][] = [
    [
      adaMenu,
      [
        ['bot', undefined, US],
        ['chrome', 'https://www.facebook.com/', US],
        ['iphone', 'https://www.instagram.com/', GB],
        ['iphone', undefined, GB],
        ['chrome', 'https://news.example.com/', DE],
      ],
    ],
    [
      adaSale,
      [
        ['iphone', 'https://www.google.com/', US],
        ['chrome', undefined, DE],
      ],
    ],
    [adaGone, [['chrome', undefined, US]]],
    [
      bobDocs,
      [
        ['bot', undefined, DE],
        ['chrome', 'https://www.google.com/', GB],
        ['chrome', 'https://www.google.com/', GB],
        ['iphone', 'https://t.co/', US],
      ],
    ],
    [bobTalk, [['iphone', undefined, DE]]],
    [
      erinLink,
      [
        ['chrome', 'https://www.linkedin.com/', GB],
        ['iphone', undefined, US],
      ],
    ],
  ];
  let sent = 0;
  for (const [link, linkClicks] of clicks) {
    for (const each of linkClicks) {
      await click(app, link.shortCode, each);
      sent += 1;
    }
  }
  await clicksCounted(db, sent);

  await ada.expect(200, 'DELETE', `/api/links/${adaGone.id}`);

  // A ticket Ada opens and the admin answers; an admin Config entry.
  const ticket = await ada.expect<{ id: string }>(201, 'POST', '/api/support/tickets', {
    subject: 'Custom domain?',
    message: 'Can my links use my own domain?',
    priority: 'low',
  });
  await admin.expect(201, 'POST', `/api/admin/tickets/${ticket.id}/reply`, {
    message: 'Not yet: it is on the list.',
  });
  await admin.expect(201, 'POST', '/api/admin/config', {
    key: 'links.free_limit',
    value: '7',
    description: 'A little more room on Free',
  });

  const erinId = (await erin.expect<{ id: string }>(200, 'GET', '/api/auth/user')).id;
  oldCommand(oldRoot, databaseUrl, 'user:erase', ['erin@example.com']);

  const redirects: Record<string, string | null> = {};
  for (const code of [adaMenu, adaSale, bobDocs, bobTalk, erinLink, adaGone].map((link) => link.shortCode)) {
    // HEAD: counted as no click, so what the old app showed stays what the dump holds.
    const response = await fetch(`${app.baseUrl}/s/${code}`, { method: 'HEAD', redirect: 'manual' });
    redirects[code] = `${response.status} ${response.headers.get('location') ?? ''}`.trim();
  }
  await clicksCounted(db, sent);

  const users: Record<string, unknown> = {};
  for (const [email, name] of [
    [ADMIN, 'admin'],
    ['ada@example.com', 'ada'],
    ['bob@example.com', 'bob'],
  ] as const) {
    const client = new Client(app.baseUrl);
    await client.expect(200, 'POST', '/api/auth/login', { email, password: PASSWORD });
    users[name] = { email, ...(await seenBy(client)) };
  }
  const erinLogin = await new Client(app.baseUrl).request('POST', '/api/auth/login', {
    email: 'erin@example.com',
    password: PASSWORD,
  });
  return {
    password: PASSWORD,
    users,
    erased: {
      id: erinId,
      email: 'erin@example.com',
      loginStatus: erinLogin.status,
      shortCodes: [erinLink.shortCode],
    },
    adminConfig: await admin.expect(200, 'GET', '/api/admin/config'),
    adminUsers: await admin.expect(200, 'GET', '/api/admin/users'),
    ticketMessages: await ada.expect(200, 'GET', `/api/support/tickets/${ticket.id}/messages`),
    redirects,
  };
}

async function main(): Promise<void> {
  const [oldRootArg, release] = process.argv.slice(2);
  const serverUrl = process.env.DATABASE_URL;
  if (!oldRootArg || !release || !serverUrl) {
    throw new Error(
      'usage: DATABASE_URL=postgres://…/postgres node --import tsx scripts/make-upgrade-fixture.ts <worktree of the release> <release tag>',
    );
  }
  const oldRoot = path.resolve(oldRootArg);
  const commit = spawnSync('git', ['-C', oldRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const build = spawnSync(process.execPath, [path.join(oldRoot, 'scripts/build-server.mjs')], {
    cwd: oldRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error(`the old release's server bundle did not build`);

  const name = `sniplink_fixture_${randomBytes(4).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-fixture-'));
  const db = new pg.Client({ connectionString: databaseUrl });
  let app: AppProcess | undefined;
  try {
    app = await startAppProcess(
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        ADMIN_EMAILS: ADMIN,
        // The clicks' addresses come in X-Forwarded-For, as from a proxy on this machine.
        TRUST_PROXY: 'loopback',
        PUBLIC_URL: undefined,
        LOG_LEVEL: 'warn',
      },
      90_000,
      path.join(oldRoot, 'services/standalone/dist/main.mjs'),
    );
    await db.connect();
    const seen = await drive(app, oldRoot, databaseUrl, db);
    const code = await app.stop();
    if (code !== 0) throw new Error(`the old app stopped with ${code}:\n${app.output()}`);
    app = undefined;

    const dump = spawnSync(
      'pg_dump',
      ['--inserts', '--no-owner', '--no-privileges', '--no-comments', '--dbname', databaseUrl],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    if (dump.status !== 0) throw new Error(`pg_dump exited ${dump.status}: ${dump.stderr}`);
    const pgDump = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' }).stdout.trim();
    await mkdir(fixtures, { recursive: true });
    await writeFile(path.join(fixtures, `${release}.sql.gz`), gzipSync(dump.stdout, { level: 9 }));
    const made = { release, commit, pgDump, madeAt: new Date().toISOString(), ...seen };
    const json = path.join(fixtures, `${release}.json`);
    await writeFile(json, `${JSON.stringify(made, null, 2)}\n`);
    // Formatted as `npm run lint` wants every JSON file of the repository.
    spawnSync(path.join(repoRoot, 'node_modules/.bin/biome'), ['format', '--write', json], {
      stdio: 'inherit',
    });
    console.log(`wrote ${path.relative(repoRoot, path.join(fixtures, `${release}.sql.gz`))} and .json`);
  } finally {
    await app?.stop('SIGKILL');
    await db.end().catch(() => {});
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
