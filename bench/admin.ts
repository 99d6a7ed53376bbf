/**
 * `npm run bench:admin [-- --target server] [--calls 500]`: the admin console's reads at scale, over HTTP
 * against the real app. Starts the app (projections on) on a fresh database, signs an admin up, then seeds
 * 100,000 accounts, 1,000,000 links and 10,000,000 clicks straight into the read models
 * (`loadSyntheticPlatform`: generate_series, the Overview's counts consistent with the rows), and times
 * `--calls` sequential calls of each admin read after a warm-up: p50, p95, p99 against the target p95, next
 * to a signed-in call that reads no figures (the session, the gate's look-up and HTTP: the floor).
 * One more call to measure is one line in `CALLS`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadSyntheticPlatform } from '../projections/src/admin/stats/testing';
import { createLogger, loadConfig } from '../services/platform/src/index';
import { startApp } from '../services/standalone/src/composition';
import { benchDatabase, benchServer, fmt, option } from './support';

/** What is measured: a name and the path of a GET the admin's session may call. */
const CALLS: readonly [name: string, path: string][] = [
  // The baseline: a signed-in call reading one user (session, user and billing rows), no admin figures.
  ['GET /api/auth/user (baseline)', '/api/auth/user'],
  ['GET /api/admin/stats', '/api/admin/stats'],
  ['GET /api/admin/stats/detailed', '/api/admin/stats/detailed'],
  // The Users tab: a page of everyone, and searches by e-mail and by full name (trigram index).
  ['GET /api/admin/users?page=3', '/api/admin/users?page=3'],
  ['GET /api/admin/users?search=user4242', '/api/admin/users?search=user4242&page=1'],
  ['GET /api/admin/users?search=first777 last777', '/api/admin/users?search=first777%20last777&page=1'],
];

const SITE = { users: 100_000, links: 1_000_000, clicks: 10_000_000 };
const TARGET_P95_MS = 50;
const WARM_UP = 20;
const ADMIN = 'bench-admin@example.com';

const server = await benchServer();
const database = await benchDatabase(server.adminUrl, 4);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-bench-admin-'));
const config = loadConfig({
  DATABASE_URL: database.connectionString,
  DATA_DIR: dataDir,
  ADMIN_EMAILS: ADMIN,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
});
const { app, runtime } = await startApp(config, createLogger('warn'));
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  console.log(
    `bench:admin on ${server.label}, ${os.cpus().length} cores, Node ${process.version}: the app over HTTP ` +
      '(loopback, one call at a time)\n',
  );
  const cookie = await signUpAdmin(baseUrl);

  const started = performance.now();
  await loadSyntheticPlatform(database.db, { ...SITE, now: new Date() });
  console.log(
    `seeded ${fmt(SITE.users)} users, ${fmt(SITE.links)} links, ${fmt(SITE.clicks)} clicks into the read models in ` +
      `${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  const figures = await get(baseUrl, '/api/admin/stats/detailed', cookie);
  console.log(`the Overview reads: ${JSON.stringify(figures)}\n`);

  const calls = Number(option('--calls') ?? 500);
  console.log(
    `${'call'.padEnd(44)}${'calls'.padStart(7)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}`,
  );
  for (const [name, callPath] of CALLS) {
    for (let i = 0; i < WARM_UP; i++) await get(baseUrl, callPath, cookie);
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const at = performance.now();
      await get(baseUrl, callPath, cookie);
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    const p95 = quantile(times, 0.95);
    console.log(
      `${name.padEnd(44)}${String(calls).padStart(7)}${fmt(quantile(times, 0.5), 2).padStart(9)}` +
        `${fmt(p95, 2).padStart(9)}${fmt(quantile(times, 0.99), 2).padStart(9)}${fmt(times.at(-1) ?? 0, 2).padStart(9)}` +
        `  ${p95 < TARGET_P95_MS ? 'under' : 'OVER'} the p95 target of ${TARGET_P95_MS} ms`,
    );
  }
} finally {
  await app.close();
  await runtime.stop();
  await database.drop();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);

/** Signs the admin up (ADMIN_EMAILS) and returns the session cookie, once the gate lets it through. */
async function signUpAdmin(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN, password: 'bench password' }),
  });
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';', 1)[0])
    .join('; ');
  await get(baseUrl, '/api/admin/stats', cookie);
  return cookie;
}

async function get(baseUrl: string, callPath: string, cookie: string): Promise<unknown> {
  const response = await fetch(`${baseUrl}${callPath}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`${callPath} answered ${response.status}`);
  return response.json();
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}
