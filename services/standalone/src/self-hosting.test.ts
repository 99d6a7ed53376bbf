import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PAYMENTS_DISABLED_MESSAGE } from '@sniplink/contracts';
import { HttpClient } from '@sniplink/test-support/api';
import { freePort, isRunning, runAppUntilExit, startAppProcess } from '@sniplink/test-support/app-process';
import { afterAll, describe, expect, it } from 'vitest';

/** The embedded server's postmaster pid, from its postmaster.pid (gone once the server stopped cleanly). */
function postmasterPid(dataDir: string): number | null {
  const moved = path.join(dataDir, 'postgres.location');
  const clusterDir = existsSync(moved) ? readFileSync(moved, 'utf8').trim() : path.join(dataDir, 'postgres');
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  return existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
}

describe('npm start for a self-hoster', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const embeddedDataDir = async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-self-'));
    await chmod(dataDir, 0o755);
    cleanups.push(async () => {
      // A test that failed leaves no server behind.
      const pid = postmasterPid(dataDir);
      if (pid !== null && isRunning(pid)) process.kill(pid, 'SIGQUIT');
      await rm(dataDir, { recursive: true, force: true });
    });
    return dataDir;
  };

  it('serves in production with PAYMENTS=off, saying at start-up and on Upgrade that purchases are off', async () => {
    const dataDir = await embeddedDataDir();
    const app = await startAppProcess({
      NODE_ENV: 'production',
      PAYMENTS: 'off',
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
    });
    cleanups.push(async () => void (await app.stop()));
    expect(app.output()).toContain('payments: off (PAYMENTS=off)');
    const user = new HttpClient(app.baseUrl);
    expect(
      (await user.post('/api/auth/register', { email: 'self@example.com', password: 'correct horse' }))
        .status,
    ).toBe(201);
    const upgrade = await user.post('/api/create-subscription', { plan: 'monthly' });
    expect(upgrade.status).toBe(409);
    expect(upgrade.body).toEqual({ code: 'PAYMENTS_DISABLED', message: PAYMENTS_DISABLED_MESSAGE });
    expect(await app.stop('SIGTERM')).toBe(0);
  });

  it('on a port already taken exits non-zero and leaves no embedded PostgreSQL running', async () => {
    const dataDir = await embeddedDataDir();
    const port = await freePort();
    const taken = createServer();
    taken.listen(port, '127.0.0.1');
    await once(taken, 'listening');
    cleanups.push(() => new Promise((resolve) => taken.close(() => resolve())));
    const { code, output } = await runAppUntilExit({
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
    });
    expect(code, output.slice(-3_000)).toBe(1);
    expect(output).toContain('embedded PostgreSQL');
    expect(output).toMatch(/EADDRINUSE/);
    expect(postmasterPid(dataDir)).toBeNull();
  });
});
