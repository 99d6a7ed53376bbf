import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HttpClient } from '@sniplink/test-support/api';
import { type AppProcess, isRunning, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase } from '@sniplink/test-support/database';
import { afterAll, describe, expect, it } from 'vitest';

describe('npm start: the app in one process', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('runs on the database given by DATABASE_URL, reports ready, and exits cleanly on SIGTERM', async () => {
    const database = await createTestDatabase({ migrate: false });
    cleanups.push(() => database.drop());
    const app = await startAppProcess({ DATABASE_URL: database.connectionString });
    const health = await fetch(`${app.baseUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await (await fetch(`${app.baseUrl}/readyz`)).json();
    expect(ready).toMatchObject({
      status: 'ok',
      checks: { database: { ok: true }, eventStore: { ok: true }, clickStream: { ok: true, partitions: 8 } },
    });
    expect(app.output()).toContain('"msg":"payments: local test provider (no money moves)"');
    expect(await app.stop('SIGTERM'), app.output().slice(-4_000)).toBe(0);
    expect(app.output()).toContain('"msg":"stopped"');
  });

  it("without PUBLIC_URL names one address in its log, its short links, the checkout's return and the portal's", async () => {
    const database = await createTestDatabase({ migrate: false });
    cleanups.push(() => database.drop());
    const app = await startAppProcess({ DATABASE_URL: database.connectionString, PUBLIC_URL: undefined });
    cleanups.push(async () => void (await app.stop()));
    const port = new URL(app.baseUrl).port;
    const logged = /is running at (\S+)/.exec(app.output())?.[1];
    expect(logged).toBe(`http://localhost:${port}`);

    const user = new HttpClient(app.baseUrl);
    expect(
      (await user.post('/api/auth/register', { email: 'one@example.com', password: 'correct horse' })).status,
    ).toBe(201);
    const link = await user.post<{ shortUrl: string }>('/api/links', { originalUrl: 'https://example.com/' });
    expect(link.body.shortUrl).toMatch(new RegExp(`^${logged}/s/\\w+$`));

    const checkout = await user.post<{ sessionUrl: string }>('/api/create-subscription', { plan: 'monthly' });
    expect(checkout.body.sessionUrl.startsWith(`${logged}/pay/local/`)).toBe(true);
    const paid = await user.post(`${new URL(checkout.body.sessionUrl).pathname}/pay`);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(
      new RegExp(`^${logged}/subscribe\\?payment=success&session_id=`),
    );

    const portal = await user.post<{ url: string }>('/api/billing/portal');
    expect(portal.body.url.startsWith(`${logged}/pay/local/portal/`)).toBe(true);
    const portalPage = await user.get(new URL(portal.body.url).pathname);
    expect(portalPage.text).toContain(`href="${logged}/profile"`);
  });

  /** A request whose body never comes: it holds the HTTP server's close. */
  const startSlowRequest = async (baseUrl: string) => {
    const slowClient = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    cleanups.push(async () => void slowClient.destroy());
    slowClient.on('error', () => {});
    await once(slowClient, 'connect');
    // The server's "100 Continue" says the request reached its handler (past the check that answers 503
    // once closing has begun); then a part of the body, and nothing more.
    const headers = [
      'POST /api/auth/login HTTP/1.1',
      `Host: ${new URL(baseUrl).host}`,
      `Origin: ${baseUrl}`,
      'Content-Type: application/json',
      'Content-Length: 100',
      'Expect: 100-continue',
    ];
    slowClient.write(`${headers.join('\r\n')}\r\n\r\n`);
    const [reply] = (await once(slowClient, 'data')) as [Buffer];
    expect(reply.toString()).toMatch(/^HTTP\/1\.1 100 Continue/);
    slowClient.write('{');
    return slowClient;
  };

  /** Signals once, and again while a held request keeps the stop at its first step; the exit code. */
  const signalTwiceWhileStopping = async (app: AppProcess, signal: NodeJS.Signals) => {
    await startSlowRequest(app.baseUrl);
    app.child.kill(signal);
    for (let i = 0; i < 100 && !app.output().includes('"msg":"shutting down"'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    app.child.kill(signal);
    return app.stop();
  };

  it('a request that never ends holds the stop 5 s at most, then its connection is cut', async () => {
    const database = await createTestDatabase({ migrate: false });
    cleanups.push(() => database.drop());
    const app = await startAppProcess({ DATABASE_URL: database.connectionString });
    const slowClient = await startSlowRequest(app.baseUrl);
    const cut = once(slowClient, 'close');
    const started = Date.now();
    expect(await app.stop('SIGTERM'), app.output().slice(-4_000)).toBe(0);
    const tookMs = Date.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(4_900);
    expect(tookMs).toBeLessThan(15_000);
    await cut;
    expect(app.output()).toContain('"msg":"stopped"');
  });

  it('a second SIGTERM while stopping exits 1 at once, naming the step it interrupted', async () => {
    const database = await createTestDatabase({ migrate: false });
    cleanups.push(() => database.drop());
    const app = await startAppProcess({ DATABASE_URL: database.connectionString });
    expect(await signalTwiceWhileStopping(app, 'SIGTERM')).toBe(1);
    expect(app.output()).toContain(
      '"msg":"second SIGTERM while stopping (closing the HTTP server); exiting"',
    );
    expect(app.output()).not.toContain('"msg":"stopped"');
  });

  it('a second Ctrl-C leaves no embedded PostgreSQL running behind', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-app-'));
    await chmod(dataDir, 0o755);
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const app = await startAppProcess({ DATABASE_URL: undefined, DATA_DIR: dataDir });
    const postmaster = Number(findPostmasterPid(dataDir));
    expect(isRunning(postmaster)).toBe(true);
    cleanups.push(async () => {
      if (isRunning(postmaster)) process.kill(postmaster, 'SIGQUIT'); // the test failed: no orphan left
    });
    expect(await signalTwiceWhileStopping(app, 'SIGINT')).toBe(1);
    for (let i = 0; i < 100 && isRunning(postmaster); i++) await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(postmaster)).toBe(false);
  });

  it('refuses to start on a bad variable, naming it', async () => {
    await expect(startAppProcess({ CLICK_PARTITIONS: 'many' }, 20_000)).rejects.toThrow(
      /CLICK_PARTITIONS: must be a whole number between 1 and 256/,
    );
  });

  it('refuses to start in production on the local test checkout, naming PAYMENTS', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-app-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await expect(
      startAppProcess(
        { NODE_ENV: 'production', PAYMENTS: 'local', DATABASE_URL: undefined, DATA_DIR: dataDir },
        20_000,
      ),
    ).rejects.toThrow(/exited with 2:[\s\S]*PAYMENTS: local is refused when NODE_ENV=production/);
    // Refused before anything started: no embedded PostgreSQL was made.
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  });

  it('with no DATABASE_URL starts its embedded PostgreSQL in DATA_DIR, and stops it on Ctrl-C', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-app-'));
    await chmod(dataDir, 0o755);
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const app = await startAppProcess({ DATABASE_URL: undefined, DATA_DIR: dataDir });
    expect(app.output()).toContain('embedded PostgreSQL');
    const ready = (await (await fetch(`${app.baseUrl}/readyz`)).json()) as { status: string };
    expect(ready.status).toBe('ok');
    const pidFile = findPostmasterPid(dataDir);
    expect(pidFile).not.toBeNull();
    // A stop must not overrun the grace: a click thread stopped before its first Kysely query keeps
    // its pool open until Db.close ends it. Should a stop overrun again, the logs say which step it waited for.
    const code = await app.stop('SIGINT');
    const serverLog = path.join(dataDir, 'postgres.log');
    const logs = `app:\n${app.output().slice(-4_000)}\nPostgreSQL:\n${existsSync(serverLog) ? readFileSync(serverLog, 'utf8').slice(-4_000) : '(no log)'}`;
    expect(code, logs).toBe(0);
    const postmaster = Number(pidFile);
    for (let i = 0; i < 50 && isRunning(postmaster); i++) await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(postmaster)).toBe(false);
  });
});

/** The postmaster's PID from its pid file (the cluster is in DATA_DIR/postgres, or where it points). */
function findPostmasterPid(dataDir: string): string | null {
  const moved = path.join(dataDir, 'postgres.location');
  const clusterDir = existsSync(moved) ? readFileSync(moved, 'utf8').trim() : path.join(dataDir, 'postgres');
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  return existsSync(pidFile) ? (readFileSync(pidFile, 'utf8').split('\n')[0] ?? null) : null;
}
