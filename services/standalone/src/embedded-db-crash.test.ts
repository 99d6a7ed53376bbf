import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { until } from '@sniplink/test-support/until';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A real browser's user agent: isbot counts Node's fetch as a bot, and bots' clicks are not counted.
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EMAIL = `crash.${Date.now()}@example.com`;
const PASSWORD = 'correct horse';
const ROOT = path.resolve(import.meta.dirname, '../../..');

interface Answer {
  status: number;
  retryAfter: string | null;
  type: string | null;
  body: string;
}

let dataDir: string;
let app: AppProcess;
let cookie: string;

/** One call of the API as a browser makes it (JSON body, same-origin), with the session cookie unless told. */
async function call(method: string, url: string, body?: unknown, withCookie = true): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${url}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(withCookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}

interface Readiness {
  status: string;
  checks: {
    database: {
      ok: boolean;
      embedded?: { state: string; restarts: number; lastExit: { signal: string | null } | null };
    };
    clickSpill?: { spilled: number; replayed: number; files: number };
  };
}
const readyz = async () => (await (await fetch(`${app.baseUrl}/readyz`)).json()) as Readiness;

/** The postmaster's PID and socket directory, from its pid file (the cluster may be relocated as root). */
function postmaster(): { pid: number; socketDir: string } {
  const moved = path.join(dataDir, 'postgres.location');
  const clusterDir = existsSync(moved) ? readFileSync(moved, 'utf8').trim() : path.join(dataDir, 'postgres');
  const lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), socketDir: lines[4] ?? '' };
}

beforeAll(async () => {
  // As `npm start` does: the not-found page is the web app's.
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/ensure-web-build.mjs')], {
    stdio: 'inherit',
  });
  expect(built.status).toBe(0);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-crash-'));
  await chmod(dataDir, 0o755);
  // A small click buffer: without the spill, the clicks of the outage would not fit and be dropped.
  app = await startAppProcess({ DATABASE_URL: undefined, DATA_DIR: dataDir, CLICK_BUFFER_CAPACITY: '500' });
  const registered = await call('POST', '/api/auth/register', { email: EMAIL, password: PASSWORD }, false);
  expect(registered.status).toBe(201);
  const response = await fetch(`${app.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
}, 180_000);

afterAll(async () => {
  await app?.stop('SIGTERM');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Every kind of API call that needs the database: sessions, both throttles, commands, queries, the demo. */
function databaseCalls(linkId: string): (() => Promise<Answer>)[] {
  return [
    () => call('GET', '/api/auth/user'),
    () => call('POST', '/api/auth/login', { email: EMAIL, password: PASSWORD }, false),
    () =>
      call(
        'POST',
        '/api/auth/register',
        { email: `other.${Date.now()}@example.com`, password: PASSWORD },
        false,
      ),
    () => call('PATCH', '/api/user/profile', { firstName: 'Ada' }),
    () => call('GET', '/api/links'),
    () => call('POST', '/api/links', { originalUrl: 'https://example.com/new', title: null }),
    () => call('PATCH', `/api/links/${linkId}`, { title: 'renamed' }),
    () => call('GET', '/api/links/check-availability/free-code'),
    () => call('GET', `/api/analytics/link/${linkId}`),
    () => call('GET', '/api/analytics/user'),
    () => call('GET', '/api/analytics/export'),
    () => call('POST', '/api/demo/shorten', { url: 'https://example.com/demo' }, false),
    () => call('GET', '/api/demo/links', undefined, false),
  ];
}

describe('kill -9 of the embedded PostgreSQL under redirect load', () => {
  it('answers 503 with Retry-After (never 500), keeps redirecting, restarts the server itself, and counts every 302 once', async () => {
    const created = await call('POST', '/api/links', { originalUrl: 'https://example.com/one', title: null });
    const link = JSON.parse(created.body) as { id: string; shortCode: string };
    const visit = (code: string) =>
      fetch(`${app.baseUrl}/s/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
    expect((await visit(link.shortCode)).status).toBe(302); // now in the redirect cache
    const appPid = app.child.pid;

    // Redirect load from 4 clients until told to stop: every answer's status is kept.
    let loading = true;
    const redirects: number[] = [];
    const load = Array.from({ length: 4 }, async () => {
      while (loading) {
        const response = await visit(link.shortCode).catch(() => undefined);
        if (!response) return; // the app is gone: the assertions below say so
        redirects.push(response.status);
      }
    });
    try {
      await assertOutageAndRecovery(link);
    } finally {
      loading = false;
      await Promise.all(load);
    }
    expect(new Set(redirects)).toEqual(new Set([302]));
    expect(app.child.pid).toBe(appPid);
    expect(app.child.exitCode).toBeNull();
    expect(app.output()).toContain('"msg":"embedded PostgreSQL exited unexpectedly; starting it again"');
    expect(app.output()).toContain('"msg":"embedded PostgreSQL restarted"');
    expect(app.output()).not.toContain('click thread ended'); // its connections recovered, it did not die

    // Every redirect answered, before, during and after the outage, is counted exactly once: the clicks the
    // stream could not take were spilled to DATA_DIR/click-spill and replayed.
    const counted = async () =>
      (JSON.parse((await call('GET', '/api/links')).body) as { id: string; clickCount: number }[]).find(
        (l) => l.id === link.id,
      )?.clickCount ?? -1;
    const answered = redirects.length + 1;
    expect(await until(counted, (n) => n >= answered, 30_000, 250)).toBe(answered);
    await sleep(1_000);
    expect(await counted()).toBe(answered);
    const spill = (await readyz()).checks.clickSpill;
    expect(spill?.spilled).toBeGreaterThan(0);
    expect(spill).toMatchObject({ files: 0, replayed: spill?.spilled });

    // The redirect cache follows link changes again.
    const retargeted = await call('PATCH', `/api/links/${link.id}`, {
      originalUrl: 'https://example.com/two',
    });
    expect(retargeted.status).toBe(200);
    expect((await visit(link.shortCode)).headers.get('location')).toBe('https://example.com/two');
  }, 120_000);
});

/**
 * Under the redirect load: kills the postmaster while a statement runs, checks the answers while the
 * server is away, and waits until the app has it back.
 */
async function assertOutageAndRecovery(link: { id: string }): Promise<void> {
  await sleep(1_000);
  // A statement running when the server dies outlives its postmaster (a CPU loop notices nothing): the
  // restart must clear it first, which keeps the server away a few seconds, long enough to look at.
  const server = postmaster();
  const busy = new pg.Client({ host: server.socketDir, user: 'postgres', database: 'postgres' });
  busy.on('error', () => {});
  await busy.connect();
  const looping = busy.query('DO $$ BEGIN LOOP END LOOP; END $$').catch(() => 'ended');
  process.kill(server.pid, 'SIGKILL');

  const down = await until(readyz, (r) => r.checks.database.embedded?.state === 'restarting', 5_000);
  expect(down.status).toBe('degraded');
  expect(down.checks.database).toMatchObject({
    ok: false,
    embedded: { state: 'restarting', restarts: 0, lastExit: { signal: 'SIGKILL' } },
  });
  const gap = await Promise.all(databaseCalls(link.id).map((request) => request()));
  for (const answer of gap) {
    expect(answer.status, answer.body).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  }
  const unknown = await call('GET', `/s/nosuch${Date.now().toString(36)}`);
  expect(unknown.status).toBe(404);
  expect(unknown.type).toMatch(/^text\/html/);
  expect(unknown.body).toMatch(/^<!doctype html>/i);

  // Nobody restarts anything: the app brings its server back. Meanwhile every call still gets an answer
  // a client can act on (503 and Retry-After while down), never a 500.
  const statuses = new Set<number>();
  let back: Readiness | undefined;
  for (const started = Date.now(); Date.now() - started < 30_000; ) {
    for (const request of databaseCalls(link.id)) statuses.add((await request()).status);
    const now = await readyz();
    if (now.status === 'ok') {
      back = now;
      break;
    }
  }
  expect(back?.checks.database).toMatchObject({
    ok: true,
    embedded: { state: 'running', restarts: 1, lastExit: { signal: 'SIGKILL' } },
  });
  expect(await looping).toBe('ended');
  await busy.end().catch(() => {});
  expect([...statuses].filter((status) => status >= 500 && status !== 503)).toEqual([]);

  await sleep(500); // redirects after the recovery, too
}
