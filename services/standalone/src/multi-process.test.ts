import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ErrorBody, Link, PremiumPaymentIntent, PremiumSlug } from '@sniplink/contracts';
import { Keyring } from '@sniplink/platform';
import { allProjections, withReadModels } from '@sniplink/projections';
import { HttpClient, type HttpResponse } from '@sniplink/test-support/api';
import { type AppProcess, REDIRECT_MAIN, startAppProcess } from '@sniplink/test-support/app-process';
import { runCliProcess } from '@sniplink/test-support/cli-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { serverMissing } from '@sniplink/test-support/run-servers';
import { until } from '@sniplink/test-support/until';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadModelTables } from '../../../projections/src/read-models';
import { snapshot } from '../../../projections/src/testing/fixtures';

/**
 * The scaled-out deployment of docs/scale-out.md on one fresh database, every part a real process of the
 * built app: two API processes (PROJECTIONS=off), two redirect processes, two projection processes
 * (PROJECTIONS=on: one active runner per projection, the other a standby). Mixed traffic goes through
 * all four front processes at once; the active projection process is killed with SIGKILL in the middle
 * of it. With CLICK_STREAM=kafka and a broker (KAFKA_BROKERS, or a container), every process uses the
 * Kafka click stream.
 */
const ADMIN_EMAIL = 'multi.admin@example.com';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FREE_LIMIT = 5;
/** How long a standby may take to be the active one (docs/scale-out.md says about two seconds). */
const TAKEOVER_BOUND_MS = 10_000;
/**
 * How long after the last visit every click may take to be counted: the consumer sums while clicks keep
 * coming and writes once the stream is quiet. On Kafka a killed member's partitions wait for the group's
 * session timeout before the other member is given them.
 */
const DRAIN_BOUND_MS = 60_000;
const REBUILD_CLI = path.resolve(import.meta.dirname, 'cli/rebuild-projections.ts');
const PLAN_CLI = path.resolve(import.meta.dirname, 'cli/user-plan.ts');

const kafka = process.env.CLICK_STREAM === 'kafka';
// The run's broker (test/support/servers.ts), which every process is given in KAFKA_BROKERS.
const brokerMissing = kafka ? serverMissing('kafka') : undefined;
const noBroker = brokerMissing !== undefined;
if (noBroker)
  console.warn(`[multi-process] skipped: CLICK_STREAM=kafka needs a Kafka broker: ${brokerMissing}`);
const run = `${Date.now().toString(36)}${process.pid}`;

let database: TestDatabase;
let dataRoot: string;
let projectionsA: AppProcess;
let projectionsB: AppProcess;
const apis: AppProcess[] = [];
const redirects: AppProcess[] = [];
/** Every process started, killed in afterAll whatever happened (by its own PID, through its handle). */
const started: AppProcess[] = [];

/** The environment every process shares; each gets a DATA_DIR of its own (click spill, outbox). */
async function processEnv(name: string, extra: Record<string, string>): Promise<Record<string, string>> {
  const dataDir = path.join(dataRoot, name);
  await mkdir(dataDir);
  return {
    DATABASE_URL: database.connectionString,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAILS: ADMIN_EMAIL,
    // One secret for the local test checkout's webhook events, whichever API process signs them.
    STRIPE_WEBHOOK_SECRET: 'whsec_multiprocess',
    // Six processes share the server's connections with the other test files of the run.
    DB_POOL_SIZE: '6',
    ...(kafka ? { CLICK_STREAM: 'kafka', KAFKA_TOPIC: `clicks-multi-${run}` } : {}),
    ...extra,
  };
}

async function start(name: string, extra: Record<string, string>, main?: string): Promise<AppProcess> {
  const child = await startAppProcess(await processEnv(name, extra), 90_000, main);
  started.push(child);
  return child;
}

beforeAll(async () => {
  if (noBroker) return;
  database = await createTestDatabase({ migrate: false, poolSize: 4 });
  dataRoot = await mkdtemp(path.join(os.tmpdir(), 'sniplink-multi-'));
  // The first projection process alone: it migrates the database and takes every projection's lock.
  projectionsA = await start('projections-a', { PROJECTIONS: 'on' });
  // allSettled: when one fails to start, the others are in `started` before afterAll kills them.
  const rest = await Promise.allSettled([
    start('projections-b', { PROJECTIONS: 'on' }),
    start('api-1', { PROJECTIONS: 'off' }),
    start('api-2', { PROJECTIONS: 'off' }),
    start('redirect-1', {}, REDIRECT_MAIN),
    start('redirect-2', {}, REDIRECT_MAIN),
  ]);
  const failed = rest.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  [projectionsB, apis[0], apis[1], redirects[0], redirects[1]] = rest.map(
    (result) => (result as PromiseFulfilledResult<AppProcess>).value,
  ) as [AppProcess, AppProcess, AppProcess, AppProcess, AppProcess];
}, 180_000);

afterAll(async () => {
  await Promise.all(started.map((child) => child.stop('SIGKILL')));
  await database?.drop();
  if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
});

/** The lock names of the runners a projection process holds (projections/src/runner.ts, the PG stream). */
function lockNames(): string[] {
  const names = allProjections({ keyring: new Keyring(database.db) }).map((p) => `projection:${p.name}`);
  // The PostgreSQL click stream's consumer group is an advisory lock too; Kafka's is the broker's.
  return kafka ? names : [...names, 'cs-group:analytics'];
}

/**
 * Of `names`, those whose advisory lock a session holds, with the server process of that session: what an
 * operator sees in pg_locks.
 */
async function heldLocks(names: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; pid: number }>`
    SELECT n.name, l.pid FROM unnest(${names}::text[]) AS n(name)
    JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND ((l.classid::int8 << 32) | l.objid::int8) = hashtext(n.name)::int8`.execute(database.db);
  return new Map(rows.map((row) => [row.name, row.pid]));
}

/** Clicks (humans and bots) per link in the analytics read model. */
async function counted(): Promise<Map<string, number>> {
  const rows = await withReadModels(database.db)
    .selectFrom('rm_link_clicks')
    .select(['link_id', 'clicks', 'bot_clicks'])
    .execute();
  return new Map(rows.map((row) => [row.link_id, Number(row.clicks) + Number(row.bot_clicks)]));
}

/**
 * Resolves with the ms from now until the clicks of every 302 answered before now are counted: the click
 * consumer's takeover plus its next write (every 5 s at most while clicks keep coming).
 */
async function clicksBeforeNowCounted(): Promise<number> {
  const from = Date.now();
  const due = [...visited].map(([id, v]) => [id, v.redirected] as const);
  await until(counted, (c) => due.every(([id, n]) => (c.get(id) ?? 0) >= n), DRAIN_BOUND_MS, 200);
  return Date.now() - from;
}

let signUps = 0;
/** A new account signed up at `api`; `at(other)` is the same browser (its session cookie) at another process. */
async function signUp(api: AppProcess, label: string) {
  const email = `${label}.${run}.${++signUps}@example.com`;
  const client = new HttpClient(api.baseUrl);
  const response = await client.post<{ id: string }>('/api/auth/register', {
    email,
    password: 'correct horse',
  });
  expect(response.status, response.text).toBe(201);
  return { client, email, userId: response.body.id, at: (other: AppProcess) => sameBrowser(client, other) };
}

function sameBrowser(client: HttpClient, other: AppProcess): HttpClient {
  const there = new HttpClient(other.baseUrl);
  for (const [name, value] of client.cookies) there.cookies.set(name, value);
  return there;
}

const createLink = (client: HttpClient, body: Record<string, unknown>) =>
  client.post<Link & ErrorBody>('/api/links', { title: null, ...body });
const statuses = (responses: HttpResponse[]) => responses.map((r) => r.status).sort();

/** Links whose short codes the redirect traffic visits, and the 302s each got. */
const visited = new Map<string, { link: Link; redirected: number }>();

/**
 * Waits until `link` redirects through each redirect process (a create answers once the links read model
 * has it, or after 2 s without it: while no runner is active it may not yet), then the traffic visits it.
 * Those first 302s are clicks too.
 */
async function visitFromNowOn(link: Link): Promise<void> {
  for (const redirect of redirects) {
    const status = await until(
      async () => {
        const response = await fetch(`${redirect.baseUrl}/s/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': CHROME },
        });
        await response.body?.cancel();
        return response.status;
      },
      (s) => s === 302,
      TAKEOVER_BOUND_MS,
    );
    expect(status, `/s/${link.shortCode} at ${redirect.baseUrl}`).toBe(302);
  }
  visited.set(link.id, { link, redirected: redirects.length });
}

/**
 * Visitors following the links through both redirect processes in turn, until `stop`: each 302 counted
 * for its link. A visit that fails (no answer) is not a redirect and is not counted.
 */
function redirectTraffic(visitors: number): { stop: () => Promise<number> } {
  let stopping = false;
  let visits = 0;
  const visitor = async (n: number) => {
    while (!stopping) {
      const targets = [...visited.values()];
      const target = targets[(n + visits) % targets.length];
      const redirect = redirects[(n + visits++) % redirects.length];
      if (!target || !redirect) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const response = await fetch(`${redirect.baseUrl}/s/${target.link.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': CHROME },
      }).catch(() => undefined);
      await response?.body?.cancel();
      if (response?.status === 302) target.redirected++;
      else if (response) throw new Error(`/s/${target.link.shortCode} answered ${response.status}`);
    }
  };
  const all = Promise.all(Array.from({ length: visitors }, (_, n) => visitor(n)));
  return {
    stop: async () => {
      stopping = true;
      await all;
      return visits;
    },
  };
}

/** A Free user creates 2 × FREE_LIMIT links at once, half through each API process: exactly FREE_LIMIT pass. */
async function quotaRace(label: string) {
  const user = await signUp(apis[0] as AppProcess, label);
  const clients = apis.map((api) => user.at(api));
  const responses = await Promise.all(
    Array.from({ length: 2 * FREE_LIMIT }, (_, i) =>
      createLink(clients[i % clients.length] as HttpClient, {
        originalUrl: `https://example.com/${label}/${i}`,
      }),
    ),
  );
  expect(statuses(responses)).toEqual([...Array(FREE_LIMIT).fill(201), ...Array(FREE_LIMIT).fill(403)]);
  for (const refused of responses.filter((r) => r.status === 403))
    expect(refused.body.code).toBe('SUBSCRIPTION_REQUIRED');
  await Promise.all(responses.filter((r) => r.status === 201).map((created) => visitFromNowOn(created.body)));
  return user;
}

/** Two users ask for the same custom codes at the same moment, one through each API process. */
async function codeRace(label: string, codes: number) {
  const [first, second] = await Promise.all([
    signUp(apis[0] as AppProcess, `${label}.a`),
    signUp(apis[1] as AppProcess, `${label}.b`),
  ]);
  for (let i = 0; i < codes; i++) {
    const shortCode = `${label}-${i}`;
    const responses = await Promise.all(
      [first, second].map((user, n) =>
        createLink(user.client, { originalUrl: `https://example.com/${label}/${n}`, shortCode }),
      ),
    );
    expect(statuses(responses)).toEqual([201, 409]);
    const winner = responses.find((r) => r.status === 201) as HttpResponse<Link & ErrorBody>;
    expect(winner.body.shortCode).toBe(shortCode);
    expect(responses.find((r) => r.status === 409)?.body.message).toContain('already taken');
    await visitFromNowOn(winner.body);
  }
}

interface Buyer {
  client: HttpClient;
  userId: string;
}

/**
 * Two Pro buyers start buying the same premium slug at once, one through each API process; the one who
 * holds it pays. Returns the buyer who holds it.
 */
async function premiumRace(slug: PremiumSlug, buyers: [Buyer, Buyer]): Promise<Buyer> {
  const start = (buyer: Buyer) =>
    buyer.client.post<PremiumPaymentIntent & ErrorBody>(
      `/api/marketplace/premium-slugs/${slug.id}/payment-intent`,
    );
  const responses = await Promise.all(buyers.map(start));
  expect(statuses(responses)).toEqual([200, 409]);
  const holds = responses[0]?.status === 200 ? 0 : 1;
  const [holder, other] = [buyers[holds] as Buyer, buyers[1 - holds] as Buyer];
  const intent = (responses[holds] as HttpResponse<PremiumPaymentIntent>).body;
  // The test card form's Pay, through the other API process: it delivers the signed webhook event.
  const paid = await new HttpClient(other.client.baseUrl).post<{ status: string }>(
    `/pay/local/payments/${intent.paymentIntentId}/confirm`,
    { clientSecret: intent.clientSecret, action: 'pay' },
  );
  expect(paid.body, paid.text).toEqual({ status: 'succeeded', error: null });
  // The other buyer, too late: the slug is owned.
  expect((await start(other)).status).toBe(409);
  return holder;
}

describe.skipIf(noBroker)('two API, two redirect and two projection processes on one database', () => {
  it('keeps every invariant under mixed traffic, survives the active projection process being killed, counts every click once, and its read models equal a rebuild', async () => {
    const [api1, api2] = apis as [AppProcess, AppProcess];
    // The admin is the one address ADMIN_EMAILS names (signUp makes run-unique ones).
    const adminClient = new HttpClient(api1.baseUrl);
    expect(
      (await adminClient.post('/api/auth/register', { email: ADMIN_EMAIL, password: 'correct horse' }))
        .status,
    ).toBe(201);
    const slugs = await Promise.all(
      [0, 1].map(async (i) => {
        const added = await sameBrowser(adminClient, i ? api2 : api1).post<PremiumSlug>(
          '/api/admin/premium-slugs',
          { slug: `premium${i}`, price: 1900 },
        );
        expect(added.status, added.text).toBe(201);
        return added.body;
      }),
    );
    // Two Pro buyers (an operator's grant through the CLI), each signed in on its own API process.
    const buyers = await Promise.all([signUp(api1, 'multi.buyer'), signUp(api2, 'multi.buyer')]);
    const granted = await Promise.all(
      buyers.map((buyer) =>
        runCliProcess(PLAN_CLI, [buyer.email, 'monthly'], { DATABASE_URL: database.connectionString }),
      ),
    );
    for (const result of granted) expect(result.status, result.stderr).toBe(0);

    // Before the kill: projection process A holds every lock, B none.
    const locks = lockNames();
    const heldByA = await heldLocks(locks);
    expect([...heldByA.keys()].sort()).toEqual([...locks].sort());
    const sessionsOfA = new Set(heldByA.values());

    const traffic = redirectTraffic(4);
    const [, , firstOwner] = await Promise.all([
      quotaRace('multi.quota1'),
      codeRace('early', 3),
      premiumRace(slugs[0] as PremiumSlug, [buyers[0], buyers[1]]),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // The active projection process dies mid-traffic.
    expect(await projectionsA.stop('SIGKILL')).toBe('SIGKILL');
    const killedAt = Date.now();
    const clicksTakenOver = clicksBeforeNowCounted();
    const afterKill = Promise.all([
      quotaRace('multi.quota2'),
      codeRace('late', 3),
      premiumRace(slugs[1] as PremiumSlug, [
        { ...buyers[1], client: buyers[1].at(api1) },
        { ...buyers[0], client: buyers[0].at(api2) },
      ]),
    ]);
    // What an operator sees: every projection's lock held again, by sessions other than A's (B's).
    const heldByB = await until(
      () => heldLocks(locks),
      (held) => held.size === locks.length && [...held.values()].every((pid) => !sessionsOfA.has(pid)),
      TAKEOVER_BOUND_MS,
      50,
    );
    const lockTakeoverMs = Date.now() - killedAt;
    expect([...heldByB.keys()].sort()).toEqual([...locks].sort());
    expect([...heldByB.values()].filter((pid) => sessionsOfA.has(pid))).toEqual([]);
    // What a user sees: a link created after the kill redirects through both redirect processes.
    const { client: late } = await signUp(api2, 'multi.late');
    const lateLink = (await createLink(late, { originalUrl: 'https://example.com/after-the-kill' })).body;
    await visitFromNowOn(lateLink);
    const readModelTakeoverMs = Date.now() - killedAt;
    console.info(
      `[multi-process] after SIGKILL: every lock held again within ${lockTakeoverMs} ms, ` +
        `a new link redirected within ${readModelTakeoverMs} ms`,
    );
    expect(readModelTakeoverMs).toBeLessThan(TAKEOVER_BOUND_MS);
    const [, , secondOwner] = await afterKill;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const visits = await traffic.stop();
    const trafficEnded = Date.now();
    console.info(
      `[multi-process] the clicks answered before the kill were all counted ${await clicksTakenOver} ms after it`,
    );

    // Every 302 counted once, by whichever consumer was active when its click was read.
    const expected = new Map([...visited].map(([id, v]) => [id, v.redirected]));
    const clicks = await until(
      counted,
      (c) => [...expected].every(([id, n]) => (c.get(id) ?? 0) === n),
      DRAIN_BOUND_MS,
      200,
    );
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    console.info(
      `[multi-process] ${visits} visits, ${total} redirects (302) over ${expected.size} links; ` +
        `every click counted ${Date.now() - trafficEnded} ms after the traffic ended`,
    );
    expect(total).toBeGreaterThan(100);
    expect(Object.fromEntries(clicks)).toEqual(Object.fromEntries([...expected].filter(([, n]) => n > 0)));

    // Invariants in the read models: codes unique, the quota kept, one owner per premium slug.
    const links = await withReadModels(database.db)
      .selectFrom('rm_links')
      .select(['owner_id', 'code_lower'])
      .where('deleted', '=', false)
      .execute();
    expect(new Set(links.map((l) => l.code_lower)).size).toBe(links.length);
    const perOwner = new Map<string, number>();
    for (const link of links) perOwner.set(link.owner_id, (perOwner.get(link.owner_id) ?? 0) + 1);
    expect(Math.max(...perOwner.values())).toBeLessThanOrEqual(FREE_LIMIT);
    const owners = await withReadModels(database.db)
      .selectFrom('rm_premium_slugs')
      .select(['slug_id', 'owner_id'])
      .where(
        'slug_id',
        'in',
        slugs.map((slug) => slug.id),
      )
      .orderBy('slug')
      .execute();
    expect(owners).toEqual([
      { slug_id: slugs[0]?.id, owner_id: firstOwner.userId },
      { slug_id: slugs[1]?.id, owner_id: secondOwner.userId },
    ]);
    // And in the event log: each slug sold once.
    const { rows: sales } = await sql<{ stream_id: string; sales: number }>`
      SELECT stream_id, count(*)::int AS sales FROM es_events WHERE type = 'PremiumSlugPurchased'
      GROUP BY stream_id ORDER BY stream_id`.execute(database.db);
    expect(sales).toEqual(
      slugs
        .map((slug) => ({ stream_id: `premiumslug-${slug.id}`, sales: 1 }))
        .sort((a, b) => a.stream_id.localeCompare(b.stream_id)),
    );

    // Every process left answers ready: B's runners have caught up with the log, its consumer with the clicks.
    for (const child of [...apis, ...redirects, projectionsB]) {
      const ready = await fetch(`${child.baseUrl}/readyz`);
      expect(ready.status, await ready.text()).toBe(200);
    }

    // The read models the live runners wrote (two processes, one killed) equal a rebuild from the log.
    await Promise.all(
      [...apis, ...redirects, projectionsB].map(async (child) => expect(await child.stop('SIGTERM')).toBe(0)),
    );
    const tables = allProjections({ keyring: new Keyring(database.db) }).flatMap((p) => p.tables);
    const live = await snapshotAll(tables);
    expect(live.rm_links?.length).toBe(visited.size);
    const rebuilt = await runCliProcess(REBUILD_CLI, [], { DATABASE_URL: database.connectionString });
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(await snapshotAll(tables)).toEqual(live);
  }, 180_000);
});

async function snapshotAll(tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const entries = await Promise.all(
    tables.map(
      async (table) => [table, await snapshot(database.db, table as keyof ReadModelTables & string)] as const,
    ),
  );
  return Object.fromEntries(entries);
}
