import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PAYMENTS_DISABLED_MESSAGE } from '@sniplink/contracts';
import { HttpClient } from '@sniplink/test-support/api';
import { freePort, isRunning, runAppUntilExit, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase } from '@sniplink/test-support/database';
import { postmasterPid } from '@sniplink/test-support/embedded';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every line of a process's output as the JSON object it must be, each checked for keys written twice in
 * one object (JSON.parse would keep the last one quietly; a log shipper may keep either, or refuse it).
 */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const repeated = repeatedKeys(line);
      expect(repeated, `keys written twice in ${line}`).toEqual([]);
      return JSON.parse(line) as Record<string, unknown>;
    });
}

/** Keys that occur twice in one object of a JSON text (a scan of its strings, at every depth). */
function repeatedKeys(json: string): string[] {
  const objects: Set<string>[] = [];
  const repeated: string[] = [];
  for (let at = 0; at < json.length; at++) {
    const char = json[at];
    if (char === '{') objects.push(new Set());
    else if (char === '[') objects.push(new Set(['[']));
    else if (char === '}' || char === ']') objects.pop();
    else if (char === '"') {
      let end = at + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const text = json.slice(at, end + 1);
      const keys = objects.at(-1);
      const isKey = json[end + 1] === ':' && keys !== undefined && !keys.has('[');
      if (isKey && keys.has(text)) repeated.push(text);
      if (isKey) keys.add(text);
      at = end;
    }
  }
  return repeated;
}

/** The one fatal line a failed start must print: every line JSON, exactly one of them at level fatal. */
function fatalLine(output: string): { msg: string; exitCode: number } {
  const fatal = logLines(output).filter((line) => line.level === 60);
  expect(fatal, output.slice(-3_000)).toHaveLength(1);
  return fatal[0] as { msg: string; exitCode: number };
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

  it('on a port already taken exits 4 saying so in one JSON line, and leaves no embedded PostgreSQL running', async () => {
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
    expect(code, output.slice(-3_000)).toBe(4);
    // The embedded server had started (its lines, with the app's pid and the server's apart), then stopped.
    expect(output).toContain('embedded PostgreSQL');
    expect(logLines(output).some((line) => typeof line.postgresPid === 'number')).toBe(true);
    expect(fatalLine(output)).toMatchObject({
      exitCode: 4,
      msg: `Sniplink cannot start: cannot listen on 127.0.0.1:${port}: the port is already in use; stop what listens there or set PORT to a free port`,
    });
    expect(postmasterPid(dataDir)).toBeNull();
  });

  it('with DATABASE_URL on a port where nothing listens exits 3, naming the database and the refusal', async () => {
    const port = await freePort();
    const { code, output } = await runAppUntilExit({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/sniplink`,
      DATA_DIR: await embeddedDataDir(),
      PORT: String(await freePort()),
    });
    expect(code, output.slice(-3_000)).toBe(3);
    expect(fatalLine(output)).toMatchObject({
      exitCode: 3,
      msg: `Sniplink cannot start: cannot connect to the database at 127.0.0.1:${port}/sniplink: connection refused (is PostgreSQL running there, on that port?)`,
    });
  });

  it('with a DATA_DIR the embedded server cannot use exits 3, naming DATA_DIR and the reason', async () => {
    const file = path.join(await embeddedDataDir(), 'a-file');
    await writeFile(file, '');
    const dataDir = path.join(file, 'data');
    const { code, output } = await runAppUntilExit({
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
    });
    expect(code, output.slice(-3_000)).toBe(3);
    expect(fatalLine(output).msg).toBe(
      `Sniplink cannot start: the embedded PostgreSQL server in DATA_DIR ${dataDir} could not start: ENOTDIR: not a directory, mkdir '${dataDir}'`,
    );
  });

  it('on a database where a migration fails exits 3, naming the migration and what PostgreSQL said', async () => {
    const database = await createTestDatabase({ migrate: false });
    cleanups.push(() => database.drop());
    // A table of that name that is not ours: the first migration cannot create it.
    await database.pool.query('CREATE TABLE es_streams (something_else text)');
    const { code, output } = await runAppUntilExit({
      DATABASE_URL: database.connectionString,
      DATA_DIR: await embeddedDataDir(),
      PORT: String(await freePort()),
    });
    expect(code, output.slice(-3_000)).toBe(3);
    const { msg } = fatalLine(output);
    expect(msg).toMatch(
      /^Sniplink cannot start: the schema migration 2026-11-22T01-event-store failed on the database at [\w.]+:\d+\/sniplink_t_\w+: relation "es_streams" already exists$/,
    );
  });

  it('with a bad variable exits 2 naming each one in one JSON line, before anything starts', async () => {
    const dataDir = await embeddedDataDir();
    const { code, output } = await runAppUntilExit({
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      PORT: 'eighty',
      TIME_ZONE: '+02:00',
    });
    expect(code, output.slice(-3_000)).toBe(2);
    const fatal = fatalLine(output);
    expect(fatal.exitCode).toBe(2);
    expect(fatal.msg).toMatch(
      /^Sniplink cannot start: invalid configuration: PORT: must be a whole number.*; TIME_ZONE: must be an IANA time zone name/,
    );
    expect(output).not.toContain('embedded PostgreSQL');
    expect(postmasterPid(dataDir)).toBeNull();
  });

  it('with a setting found bad once the embedded server runs exits 2 and stops that server', async () => {
    const dataDir = await embeddedDataDir();
    // The local checkout's signing secret, kept in DATA_DIR, read after the database is up.
    await writeFile(path.join(dataDir, 'webhook-secret'), 'not a secret\n');
    const { code, output } = await runAppUntilExit({
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      PAYMENTS: 'local',
    });
    expect(code, output.slice(-3_000)).toBe(2);
    expect(output).toContain('embedded PostgreSQL ready');
    expect(fatalLine(output).msg).toBe(
      `Sniplink cannot start: invalid configuration: ${path.join(dataDir, 'webhook-secret')} does not hold a webhook signing secret (whsec_…): delete it to have a new one made, or set STRIPE_WEBHOOK_SECRET`,
    );
    expect(postmasterPid(dataDir)).toBeNull();
  });
});
