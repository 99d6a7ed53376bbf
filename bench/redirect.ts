/**
 * `npm run bench:redirect [-- --target server]`: the redirect under load, next to a ceiling measured in the
 * same run (a bare `node:http` server answering every request with the same 302).
 *
 * Starts the app (embedded default, or on a fresh database at DATABASE_URL an app process that runs the
 * API and projections plus the redirect as a process of its own, which takes the load), registers an account over HTTP,
 * makes it Pro with `user:plan`, creates 10,000 links through the app's LinkService (bench/seed-links.ts:
 * Pro allows 500 a month over HTTP), loads every code once into the cache, then drives load at 8 and 64
 * connections (`--connections 8,64`), in alternating rounds of bare and app (`--rounds 3`), over random
 * codes with a browser User-Agent: Debian's `wrk` when it
 * is installed (C; a fraction of autocannon's CPU, which shares the 2 cores with the server), else
 * autocannon from a process of its own (`--loader autocannon|wrk`). Prints req/s, p50/p99, peak RSS and
 * CPU of the serving process and of its main thread, CPU of PostgreSQL and of the load generator. After
 * each app run it waits for the click projection to count every redirect the server answered, and says
 * how long that took; a last run (autocannon: wrk cannot hold a rate) holds a fixed rate at half the
 * app's 64-connection maximum. `--profile <dir>`: CPU profiles of the app's threads.
 *
 * Beside the plain links, at each connection count: one password-protected link visited with the cookie
 * that remembers its password (the Fastify route: the cookie's signature checked on every visit), and one
 * link with an expiry date a day away (the fast paths, until it expires).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { connectDatabase, createLogger } from '@sniplink/platform';
import { startEmbeddedPostgres } from '@sniplink/platform/embedded';
import { countedClicks } from '@sniplink/projections';
import {
  type AppProcess,
  freePort,
  REDIRECT_MAIN,
  startAppProcess,
} from '@sniplink/test-support/app-process';
import {
  cpuSeconds,
  createDatabase,
  fmt,
  machineBusySeconds,
  mainThreadCpuSeconds,
  option,
  postmasterPidOf,
  postmasterPidOfServer,
  rssMb,
  tempDataDir,
  treeCpuSeconds,
  treePssMb,
} from './support';

const LINKS = Number(option('--links') ?? 10_000);
const SECONDS = Number(option('--seconds') ?? 10);
const CONNECTIONS = (option('--connections') ?? '8,64').split(',').map(Number);
/**
 * Rounds of bare-then-app per connection count: this shared machine's speed swings by a third from one
 * minute to the next (the bare server alone: 38,000-70,000 req/s), so one pair of runs can compare a
 * fast minute with a slow one. The ratios are of the rounds' sums; each round is printed too.
 */
const ROUNDS = Number(option('--rounds') ?? 3);
const TSX = ['--import', 'tsx'];
const ROOT = path.resolve(import.meta.dirname, '..');
const onServer = option('--target') === 'server' || Boolean(process.env.DATABASE_URL);
/** wrk (Debian's `wrk`, C, a fraction of autocannon's CPU per request) when installed, else autocannon. */
const LOADER = option('--loader') ?? (hasWrk() ? 'wrk' : 'autocannon');

function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const line = (what: string, value: string, note = '') =>
  console.log(`${what.padEnd(58)} ${value.padStart(14)}  ${note}`);

interface LoadResult {
  seconds: number;
  total: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  ok2xx: number;
  ok3xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface CatchUp {
  run: string;
  /** 3xx answers autocannon counted in this and every earlier app run. */
  redirected: number;
  /** Redirects the server answered, by its click buffer (includes the warm-up's bot clicks). */
  served: number;
  counted: number;
  bots: number;
  seconds: number;
  targetSeconds: number;
}

interface Measured extends LoadResult {
  peakRssMb: number;
  serverCpu: number;
  /** The serving process's main thread alone (its event loop). */
  mainCpu: number;
  pgCpu: number;
  loaderCpu: number;
  /** Every core of the machine, busy: includes whatever else runs on it. */
  machineCpu: number;
  /** `--target server`: the app process that runs the projections (the click consumer among them). */
  projectorCpu: number;
}

/** Rounds of one server as one: requests over seconds, the median round's latencies, the highest peaks. */
function combined(runs: Measured[]): Measured {
  if (runs.length === 1) return runs[0] as Measured;
  const sum = (of: (m: Measured) => number) => runs.reduce((total, m) => total + of(m), 0);
  const seconds = sum((m) => m.seconds);
  const median = (of: (m: Measured) => number) => {
    const sorted = runs.map(of).sort((x, y) => x - y);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  const overTime = (of: (m: Measured) => number) => sum((m) => of(m) * m.seconds) / seconds;
  return {
    seconds,
    total: sum((m) => m.total),
    perSecond: sum((m) => m.total) / seconds,
    p50: median((m) => m.p50),
    p99: median((m) => m.p99),
    max: Math.max(...runs.map((m) => m.max)),
    ok2xx: sum((m) => m.ok2xx),
    ok3xx: sum((m) => m.ok3xx),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    peakRssMb: Math.max(...runs.map((m) => m.peakRssMb)),
    serverCpu: overTime((m) => m.serverCpu),
    mainCpu: overTime((m) => m.mainCpu),
    pgCpu: overTime((m) => m.pgCpu),
    loaderCpu: overTime((m) => m.loaderCpu),
    machineCpu: overTime((m) => m.machineCpu),
    projectorCpu: overTime((m) => m.projectorCpu),
  };
}

/**
 * CPU time per request of each party, in microseconds: steadier than requests/s on a machine whose speed
 * swings, and it says where a gap comes from (the event loop's own work, or the CPU the click work and
 * PostgreSQL take from the event loop and the load generator on the shared cores).
 */
function cpuPerRequest(app: Measured, bare: Measured): string {
  const us = (share: number, m: Measured) =>
    Number.isNaN(share) ? '-' : fmt((share / m.perSecond) * 1e6, 1);
  const projector = Number.isNaN(app.projectorCpu) ? '' : `, projector ${us(app.projectorCpu, app)}`;
  return `${''.padEnd(24)}CPU per request, µs: event loop ${us(app.mainCpu, app)} (bare ${us(bare.mainCpu, bare)}), the serving process's other threads ${us(app.serverCpu - app.mainCpu, app)}, PostgreSQL ${us(app.pgCpu, app)}${projector}, load generator ${us(app.loaderCpu, app)} (bare ${us(bare.loaderCpu, bare)})`;
}

/** Runs the load generator against `baseUrl` while sampling the serving process every 100 ms. */
async function drive(
  baseUrl: string,
  codesFile: string,
  connections: number,
  servingPid: number,
  pgPid?: number,
  projectorPid?: number,
  rate?: number,
  cookie?: string,
) {
  const loaderEnv = { ...process.env, ...(cookie ? { COOKIE: cookie } : {}) };
  // wrk cannot hold a rate: a fixed-rate run always goes through autocannon.
  const withWrk = LOADER === 'wrk' && !rate;
  const loader = withWrk
    ? spawn(
        'wrk',
        [
          `-t${Math.min(2, connections)}`,
          `-c${connections}`,
          `-d${SECONDS}s`,
          '-s',
          path.join(ROOT, 'bench/redirect-load.lua'),
          baseUrl,
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { ...loaderEnv, CODES: codesFile.replace(/\.json$/, '.txt') },
        },
      )
    : spawn(
        process.execPath,
        [
          ...TSX,
          path.join(ROOT, 'bench/redirect-load.ts'),
          baseUrl,
          codesFile,
          String(connections),
          String(SECONDS),
          ...(rate ? [String(Math.round(rate))] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'], env: loaderEnv },
      );
  const lines = createInterface({ input: loader.stdout as NodeJS.ReadableStream });
  let out = '';
  let onStart: () => void = () => {};
  const loadStarted = new Promise<void>((resolve) => {
    onStart = resolve;
  });
  // wrk starts its load at once; autocannon says START when its own start-up is done.
  if (withWrk) onStart();
  lines.on('line', (text) => {
    if (text === 'START') onStart();
    else if (!withWrk || text.startsWith('{')) out += text;
  });
  let peakRssMb = 0;
  const sample = () => {
    try {
      peakRssMb = Math.max(peakRssMb, rssMb(servingPid));
    } catch {}
  };
  const loaderPid = loader.pid ?? 0;
  const exited = once(loader, 'exit');
  // Bounded: the run itself lasts SECONDS; a loader that hangs is killed.
  const killer = setTimeout(() => loader.kill('SIGKILL'), (SECONDS + 30) * 1000);
  await Promise.race([loadStarted, exited]);
  // CPU is counted from the moment autocannon starts (the loader's own start-up is left out).
  const cpuAtStart = {
    server: cpuSeconds(servingPid),
    main: mainThreadCpuSeconds(servingPid),
    pg: pgPid ? treeCpuSeconds(pgPid) : 0,
    loader: cpuSeconds(loaderPid),
    machine: machineBusySeconds(),
    projector: projectorPid ? cpuSeconds(projectorPid) : 0,
  };
  let loaderCpu = cpuAtStart.loader;
  const sampler = setInterval(() => {
    sample();
    loaderCpu = Math.max(loaderCpu, cpuSeconds(loaderPid));
  }, 100);
  const started = performance.now();
  const [code] = await exited;
  const wall = (performance.now() - started) / 1000;
  const machine = (machineBusySeconds() - cpuAtStart.machine) / wall;
  clearInterval(sampler);
  clearTimeout(killer);
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  const result = withWrk ? fromWrk(JSON.parse(out) as WrkResult) : (JSON.parse(out) as LoadResult);
  return {
    ...result,
    peakRssMb,
    // As a share of one core over the load (the loader's last 100 ms sample: a slight understatement).
    serverCpu: (cpuSeconds(servingPid) - cpuAtStart.server) / wall,
    mainCpu: (mainThreadCpuSeconds(servingPid) - cpuAtStart.main) / wall,
    pgCpu: pgPid ? (treeCpuSeconds(pgPid) - cpuAtStart.pg) / wall : Number.NaN,
    loaderCpu: (loaderCpu - cpuAtStart.loader) / wall,
    machineCpu: machine,
    projectorCpu: projectorPid ? (cpuSeconds(projectorPid) - cpuAtStart.projector) / wall : Number.NaN,
  } satisfies Measured;
}

/** What bench/redirect-load.lua prints: times in ms (to the microsecond), errors as wrk counts them. */
interface WrkResult {
  total: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers whose status was neither 2xx nor 3xx. */
  status: number;
  errors: number;
  timeouts: number;
}

function fromWrk(w: WrkResult): LoadResult {
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    seconds: w.seconds,
    total: w.total,
    perSecond: w.total / w.seconds,
    p50: round(w.p50),
    p99: round(w.p99),
    max: round(w.max),
    ok2xx: 0,
    // wrk tells 2xx from 3xx apart only through a Lua response hook, which slows it: the redirect never
    // answers 2xx for a code, and the clicks table compares with the server's own count anyway.
    ok3xx: w.total - w.status,
    non2xx: w.status,
    errors: w.errors,
    timeouts: w.timeouts,
  };
}

async function startBare(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...TSX, path.join(ROOT, 'bench/bare-redirect-server.ts'), String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const text of lines) if (text === 'LISTENING') break;
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

async function runChild(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number) {
  const child = spawn(process.execPath, [...TSX, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = await once(child, 'exit');
  clearTimeout(killer);
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${output}`);
  return output.trim();
}

/** Every code once (Node's fetch is a bot to isbot: these clicks land in bot_clicks, not in clicks). */
async function warmCache(baseUrl: string, codes: string[]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < codes.length) {
        const response = await fetch(`${baseUrl}/s/${codes[next++]}`, { redirect: 'manual' });
        await response.arrayBuffer();
        if (response.status !== 302) throw new Error(`warm-up: ${response.status}`);
      }
    }),
  );
}

/** Clicks the serving process published: one per redirect it answered (bots and the warm-up included). */
async function servedClicks(
  baseUrl: string,
): Promise<{ published: number; buffered: number; dropped: number }> {
  const body = (await fetch(`${baseUrl}/readyz`).then((r) => r.json())) as {
    checks: { clickBuffer: { published: number; buffered: number; dropped: number } };
  };
  return body.checks.clickBuffer;
}

async function readyzBehind(baseUrl: string): Promise<number> {
  const body = (await fetch(`${baseUrl}/readyz`).then((r) => r.json())) as {
    checks?: { clickAnalytics?: { behind?: number } };
    clickAnalytics?: { behind?: number };
  };
  return body.checks?.clickAnalytics?.behind ?? body.clickAnalytics?.behind ?? Number.NaN;
}

interface ControlledLinks {
  /** A codes file holding the password-protected link's code alone, and the cookie that remembers its password. */
  passwordFile: string;
  cookie: string;
  /** A codes file holding the code of a link that expires in a day. */
  expiringFile: string;
}

/**
 * A password-protected link and an expiring one, made over HTTP as the signed-in user (`session`: its
 * cookies); the password is given once on the serving process for the cookie that remembers it, and each
 * link visited once so that both are cached.
 */
async function controlledLinks(appUrl: string, servingUrl: string, session: string, dir: string) {
  const create = async (body: Record<string, unknown>) => {
    const response = await fetch(`${appUrl}/api/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session },
      body: JSON.stringify({ originalUrl: 'https://example.com/articles/controlled', ...body }),
    });
    if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { shortCode: string }).shortCode;
  };
  const password = await create({ password: 'bench-link-password' });
  const expiring = await create({ expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  const unlocked = await fetch(`${servingUrl}/s/${password}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'password=bench-link-password',
  });
  const cookie = unlocked.headers.get('set-cookie')?.split(';')[0];
  if (unlocked.status !== 302 || !cookie) throw new Error(`password: ${unlocked.status}`);
  const codesFileOf = async (name: string, code: string) => {
    const file = path.join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify([code]));
    await writeFile(file.replace(/\.json$/, '.txt'), `${code}\n`);
    const visited = await fetch(`${servingUrl}/s/${code}`, { redirect: 'manual', headers: { cookie } });
    if (visited.status !== 302) throw new Error(`${name} link: ${visited.status}`);
    return file;
  };
  return {
    passwordFile: await codesFileOf('password', password),
    cookie,
    expiringFile: await codesFileOf('expiring', expiring),
  } satisfies ControlledLinks;
}

const dataDir = await tempDataDir('sniplink-bench-redirect-');
const codesFile = path.join(dataDir, 'codes.json');
const cleanups: (() => Promise<unknown>)[] = [async () => rm(dataDir, { recursive: true, force: true })];
let app: AppProcess | undefined;
let serving: AppProcess | undefined;
let bare: ChildProcess | undefined;
try {
  let appEnv: Record<string, string | undefined>;
  let label: string;
  if (onServer) {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('--target server needs DATABASE_URL (a role that may create databases)');
    const database = await createDatabase(adminUrl, 'sniplink_bench_redirect');
    cleanups.unshift(database.drop);
    appEnv = { DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    label = `PostgreSQL at ${new URL(adminUrl).host}: the redirect process (npm run start:redirect) takes the load, an app process runs the API and projections`;
  } else {
    appEnv = { DATABASE_URL: undefined, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    label = 'the embedded default (one app process, its embedded PostgreSQL)';
  }
  console.log(
    `bench:redirect on ${label}\n${os.cpus().length} cores (load generator, app and PostgreSQL share them), Node ${process.version}, ${fmt(LINKS)} links, ${SECONDS} s per run, load from ${LOADER === 'wrk' ? 'wrk (2 threads; fixed rate: autocannon)' : 'autocannon'}\n`,
  );
  // --profile <dir>: CPU profiles of the app processes (written when they stop), for a look at where the time goes.
  const profileDir = option('--profile');
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  app = await startAppProcess(appEnv, 90_000, undefined, profile);
  serving = onServer ? await startAppProcess(appEnv, 90_000, REDIRECT_MAIN, profile) : app;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...appEnv, LOG_LEVEL: 'warn' };
  if (!onServer) delete childEnv.DATABASE_URL;

  const email = `bench-${Date.now()}@example.com`;
  const registered = await fetch(`${app.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password-1' }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  line(
    'user:plan',
    await runChild(
      [path.join(ROOT, 'services/standalone/src/cli/user-plan.ts'), email, 'monthly'],
      childEnv,
      60_000,
    ),
  );
  let started = performance.now();
  const creating = Number(
    (
      await runChild(
        [path.join(ROOT, 'bench/seed-links.ts'), email, String(LINKS), '32', codesFile],
        childEnv,
        180_000,
      )
    )
      .split('\n')
      .at(-1),
  );
  const seconds = (performance.now() - started) / 1000;
  line(
    `create ${fmt(LINKS)} links (LinkService, 32 in flight)`,
    `${fmt(LINKS / creating)} /s`,
    `${fmt(creating, 1)} s (${fmt(seconds, 1)} s with the seeding process's start)`,
  );
  const codes = JSON.parse(await readFile(codesFile, 'utf8')) as string[];
  await writeFile(codesFile.replace(/\.json$/, '.txt'), `${codes.join('\n')}\n`);
  started = performance.now();
  await warmCache(serving.baseUrl, codes);
  line(
    'warm the link cache: each code once, fetch, 16 in flight',
    `${fmt(codes.length / ((performance.now() - started) / 1000))} /s`,
    '(bot clicks)',
  );

  const session = registered.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  const controlled = await controlledLinks(app.baseUrl, serving.baseUrl, session, dataDir);

  const pgPid = onServer
    ? ((await postmasterPidOfServer(appEnv.DATABASE_URL ?? '')) ?? undefined)
    : postmasterPidOf(dataDir);
  const bareServer = await startBare();
  bare = bareServer.child;
  const connectionString = onServer
    ? (appEnv.DATABASE_URL ?? '')
    : (await startEmbeddedPostgres({ dataDir, log: createLogger('warn') })).connectionString;
  // One connection; its pool ignores the error when the embedded server stops with the app, before this ends.
  const counts = connectDatabase(connectionString, { poolSize: 1 });
  cleanups.unshift(() => counts.close());
  const clickTotals = async () => {
    const { clicks, botClicks } = await countedClicks(counts.db);
    return { clicks, bots: botClicks };
  };
  const catchUps: CatchUp[] = [];
  let redirected = 0;
  /** Waits until the projection has counted every 3xx so far; how long that took after the load stopped. */
  const catchUp = async (run: string, result: Measured, targetSeconds: number) => {
    redirected += result.ok3xx;
    const started = performance.now();
    // autocannon misses the answers in flight when a run stops (up to one per connection): the server's
    // own count of redirects is the exact figure; the buffer publishes within 50 ms.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const served = await servedClicks(serving?.baseUrl ?? '');
    let totals = await clickTotals();
    let behind = Number.NaN;
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      behind = await readyzBehind(app?.baseUrl ?? '');
      totals = await clickTotals();
      if (behind === 0 && totals.clicks + totals.bots >= served.published + served.buffered) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    catchUps.push({
      run,
      redirected,
      served: served.published + served.buffered - codes.length,
      counted: totals.clicks,
      bots: totals.bots,
      seconds: (performance.now() - started) / 1000,
      targetSeconds,
    });
  };

  const results: {
    name: string;
    bare?: Measured;
    app: Measured;
    rounds?: { bare: Measured; app: Measured }[];
    /** A controlled link's run, compared with the plain links' bare ceiling printed above it. */
    beside?: true;
  }[] = [];
  const projector = serving === app ? undefined : app.child.pid;
  for (const connections of CONNECTIONS) {
    const rounds: { bare: Measured; app: Measured }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const b = await drive(bareServer.baseUrl, codesFile, connections, bare.pid ?? 0);
      const a = await drive(
        serving.baseUrl,
        codesFile,
        connections,
        serving.child.pid ?? 0,
        pgPid,
        projector,
      );
      rounds.push({ bare: b, app: a });
      await catchUp(`${connections} connections, full speed${ROUNDS > 1 ? `, round ${round}` : ''}`, a, 30);
    }
    const bareOfRounds = combined(rounds.map((r) => r.bare));
    results.push({
      name: `${connections}`,
      bare: bareOfRounds,
      app: combined(rounds.map((r) => r.app)),
      rounds,
    });
    const servingPid = serving.child.pid ?? 0;
    const password = await drive(
      serving.baseUrl,
      controlled.passwordFile,
      connections,
      servingPid,
      pgPid,
      projector,
      undefined,
      controlled.cookie,
    );
    await catchUp(`${connections} connections, password link (cookie sent)`, password, 30);
    results.push({ name: `${connections} password link`, bare: bareOfRounds, app: password, beside: true });
    const expiring = await drive(
      serving.baseUrl,
      controlled.expiringFile,
      connections,
      servingPid,
      pgPid,
      projector,
    );
    await catchUp(`${connections} connections, expiring link`, expiring, 30);
    results.push({ name: `${connections} expiring link`, bare: bareOfRounds, app: expiring, beside: true });
  }
  const full64 = results.find((r) => r.name === String(CONNECTIONS.at(-1)))?.app.perSecond ?? 0;
  const rate = Math.round(full64 / 2);
  const fixed = await drive(serving.baseUrl, codesFile, 64, serving.child.pid ?? 0, pgPid, projector, rate);
  results.push({ name: `64 at ${fmt(rate)}/s`, app: fixed });
  await catchUp(`64 connections, fixed ${fmt(rate)} req/s (half the maximum)`, fixed, 5);
  bare.kill('SIGTERM');

  console.log('');
  console.log(
    `${'connections / server'.padEnd(24)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}${'peak RSS'.padStart(10)}${'CPU'.padStart(7)}${'main'.padStart(6)}${'PG CPU'.padStart(8)}${'loader'.padStart(8)}${'projector'.padStart(10)}${'others'.padStart(8)}${'non-3xx'.padStart(9)}`,
  );
  // autocannon's latencies are whole milliseconds: a 0 ms ceiling has no ratio.
  const ratio = (app: number, bare: number) => (bare > 0 ? `${fmt(app / bare, 1)}x` : `${app} vs ${bare} ms`);
  const orZero = (n: number) => (Number.isNaN(n) ? 0 : n);
  const pct = (share: number) => (Number.isNaN(share) ? '-' : `${fmt(share * 100)}%`);
  const row = (name: string, m: Measured) =>
    console.log(
      `${name.padEnd(24)}${fmt(m.perSecond).padStart(9)}${String(m.p50).padStart(8)}${String(m.p99).padStart(8)}${String(m.max).padStart(8)}${`${fmt(m.peakRssMb)} MB`.padStart(10)}${pct(m.serverCpu).padStart(7)}${pct(m.mainCpu).padStart(6)}${pct(m.pgCpu).padStart(8)}${pct(m.loaderCpu).padStart(8)}${pct(m.projectorCpu).padStart(10)}${pct(m.machineCpu - m.serverCpu - orZero(m.pgCpu) - m.loaderCpu - orZero(m.projectorCpu)).padStart(8)}${String(m.total - m.ok3xx + m.errors).padStart(9)}`,
    );
  const servingName = serving === app ? 'app' : 'redirect';
  for (const { name, bare: b, app: a, rounds = [], beside } of results) {
    if (rounds.length > 1) {
      rounds.forEach((round, i) => {
        row(`${name}, bare, round ${i + 1}`, round.bare);
        row(`${name}, ${servingName}, round ${i + 1}`, round.app);
      });
      console.log(
        `${name} connections, ${rounds.length} rounds (req/s: all requests / all seconds; p50, p99: the rounds' median):`,
      );
    }
    if (b && !beside) row(`${name}, bare node:http`, b);
    row(`${name}, ${servingName}`, a);
    if (b)
      console.log(
        `${''.padEnd(24)}app/bare: ${fmt((a.perSecond / b.perSecond) * 100)} % of the requests/s (target 60 %), p50 ${ratio(a.p50, b.p50)}, p99 ${ratio(a.p99, b.p99)} (target 2x), peak RSS ${fmt(a.peakRssMb / b.peakRssMb, 1)}x`,
      );
    if (b) console.log(cpuPerRequest(a, b));
  }
  console.log(
    "(CPU: share of one core over the run; main: the serving process's main thread (its event loop) alone; PG CPU: the PostgreSQL server, all its processes; loader: the load generator; projector: the app process that runs the projections when the redirect is its own; others: the rest of the machine, this bench included; 2 cores = 200%)\n",
  );

  // Clicks: after each app run the projection caught up; the counters against what autocannon saw.
  console.log(
    `${'clicks after'.padEnd(54)}${'302s sent'.padStart(11)}${'counted'.padStart(10)}${'diff'.padStart(6)}${'loader saw'.padStart(12)}${'caught up'.padStart(11)}${'target'.padStart(8)}`,
  );
  for (const c of catchUps)
    console.log(
      `${c.run.padEnd(54)}${fmt(c.served).padStart(11)}${fmt(c.counted).padStart(10)}${fmt(c.counted - c.served).padStart(6)}${fmt(c.redirected).padStart(12)}${`${fmt(c.seconds, 1)} s`.padStart(11)}${`${c.targetSeconds} s`.padStart(8)}`,
    );
  console.log(
    "(302s sent: the server's count, the warm-up's bot clicks taken off; loader saw: the load generator's 3xx (wrk: 2xx and 3xx), short of it by the answers in flight when a run stops)",
  );
  line('bot clicks counted (the warm-up)', fmt(catchUps.at(-1)?.bots ?? 0), `of ${fmt(codes.length)}`);

  if (pgPid) {
    const pgTree = treePssMb(pgPid);
    line(
      `PostgreSQL after the load, ${pgTree.processes} processes, PSS`,
      `${fmt(pgTree.pssMb, 1)} MB`,
      `RSS summed ${fmt(pgTree.rssMb, 1)} MB${onServer ? ' (the whole server)' : ''}`,
    );
  }
  line('serving app process RSS after the load', `${fmt(rssMb(serving.child.pid ?? 0), 1)} MB`);
  if (serving !== app)
    line('projecting app process RSS after the load', `${fmt(rssMb(app.child.pid ?? 0), 1)} MB`);
} finally {
  if (bare && bare.exitCode === null) bare.kill('SIGTERM');
  if (serving && serving !== app) await serving.stop('SIGTERM');
  if (app) await app.stop('SIGTERM');
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => console.error(error));
}
