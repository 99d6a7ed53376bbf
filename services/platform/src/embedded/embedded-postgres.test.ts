import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@sniplink/test-support/until';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../logging';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from './embedded-postgres';
import { PACKAGED_NATIVE_DIR, reachablePgBinaries } from './pg-binaries';
import {
  endLeftoverServerProcesses,
  findRunningPostmaster,
  readPostmasterPidFile,
  stopPostmaster,
} from './postmaster';
import { isProcessRunning, readProcessStat } from './process-info';
import { resolveServerUser, succeedsAs } from './server-user';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const isRoot = process.getuid?.() === 0;
if (!isRoot)
  console.info('embedded-postgres: root-only tests are skipped: this process does not run as root');

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 60_000);

function capturingLogger(): { log: Logger; messages: () => string[] } {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  return { log, messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg) };
}

/** A fresh dataDir; as root its temp parent is opened up (mkdtemp makes it 0700) unless `private`. */
function tempDataDir(options: { private?: boolean } = {}): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'sniplink-pg-test-'));
  if (!options.private) chmodSync(parent, 0o755);
  const dataDir = path.join(parent, 'data');
  cleanups.push(() => {
    const locationFile = path.join(dataDir, 'postgres.location');
    if (existsSync(locationFile)) {
      const clusterDir = readFileSync(locationFile, 'utf8').trim();
      rmSync(clusterDir, { recursive: true });
      rmSync(`${clusterDir}.json`, { force: true });
    }
    rmSync(parent, { recursive: true, force: true });
  });
  return dataDir;
}

async function start(dataDir: string, log: Logger = capturingLogger().log): Promise<EmbeddedPostgresHandle> {
  const handle = await startEmbeddedPostgres({ dataDir, log });
  cleanups.push(() => rmSync(handle.socketDir, { recursive: true, force: true }));
  cleanups.push(() => handle.stop());
  return handle;
}

async function query<Row = Record<string, unknown>>(connectionString: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

interface OwnerProcess {
  child: ChildProcess;
  pid: number;
  connectionString: string;
}

/** Another "app process" that owns the server for dataDir (see owner-fixture.ts). */
async function startOwnerProcess(dataDir: string): Promise<OwnerProcess> {
  const fixture = path.join(here, 'owner-fixture.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  const ready = await readyLine(child);
  cleanups.push(() => stopPostmaster(ready.pid, capturingLogger().log)); // in case the fixture could not
  return { child, ...ready };
}

function readyLine(child: ChildProcess): Promise<{ pid: number; connectionString: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^READY (.*)$/m.exec(output);
      if (match?.[1]) resolve(JSON.parse(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`owner fixture exited (${code}) before ready: ${output}`)));
  });
}

async function killHard(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await once(child, 'exit');
}

function processGroupOf(pid: number): number {
  return Number(spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());
}

/** A PID that no process has any more. */
function deadPid(): number {
  const pid = spawnSync('true').pid;
  expect(isProcessRunning(pid)).toBe(false);
  return pid;
}

describe('startEmbeddedPostgres', { timeout: 60_000 }, () => {
  it('initialises a cluster on first start and serves PostgreSQL 17 as an unprivileged user', async () => {
    const dataDir = tempDataDir();
    const { log, messages } = capturingLogger();
    const handle = await start(dataDir, log);

    expect(handle.owned).toBe(true);
    expect(isProcessRunning(handle.pid)).toBe(true);
    const [row] = await query<{ version: string }>(handle.connectionString, 'select version()');
    expect(row?.version).toMatch(/^PostgreSQL 17\./);
    expect(messages()).toContain('initialising embedded PostgreSQL cluster');
    const clusterDir = path.join(dataDir, 'postgres');
    expect(statSync(clusterDir).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(dataDir, 'postgres.log'))).toBe(true);
    expect(statSync(`/proc/${handle.pid}`).uid).not.toBe(0); // PostgreSQL refuses root; we switch user
    expect(processGroupOf(handle.pid)).toBe(handle.pid); // own group: a terminal's Ctrl-C reaches only Node
    const serverLog = readFileSync(path.join(dataDir, 'postgres.log'), 'utf8');
    expect(serverLog).toContain('database system is ready to accept connections');
  });

  it('keeps data across stop and start, without initialising again', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    await query(
      first.connectionString,
      `create table links (slug text primary key); insert into links values ('a')`,
    );

    await first.stop();
    await first.stop(); // idempotent
    expect(isProcessRunning(first.pid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'postgres.owner'))).toBe(false);
    expect(existsSync(first.socketDir)).toBe(false);

    const { log, messages } = capturingLogger();
    const second = await start(dataDir, log);
    expect(second.owned).toBe(true);
    expect(messages()).not.toContain('initialising embedded PostgreSQL cluster');
    expect(await query(second.connectionString, 'select slug from links')).toEqual([{ slug: 'a' }]);
  });

  it('listens only on a private unix socket, with the app-server settings', async () => {
    const handle = await start(tempDataDir());
    const setting = async (name: string) =>
      (await query<Record<string, string>>(handle.connectionString, `show ${name}`))[0]?.[name];

    expect(await setting('listen_addresses')).toBe('');
    expect(await setting('unix_socket_permissions')).toBe('0700');
    expect(await setting('max_connections')).toBe('200');
    expect(await setting('fsync')).toBe('on');
    const socketDir = statSync(handle.socketDir);
    expect(socketDir.mode & 0o777).toBe(0o700);
    expect(socketDir.uid).toBe(statSync(`/proc/${handle.pid}`).uid);
    expect(path.join(handle.socketDir, '.s.PGSQL.5432.lock').length).toBeLessThan(100);
  });

  it('recovers from an owning app process killed with SIGKILL: stops the orphan, keeps the data', async () => {
    const dataDir = tempDataDir();
    const owner = await startOwnerProcess(dataDir);
    await query(owner.connectionString, `create table links (slug text); insert into links values ('kept')`);

    await killHard(owner.child);
    expect(isProcessRunning(owner.pid)).toBe(true); // the server outlives its app: an orphan

    const { log, messages } = capturingLogger();
    const handle = await start(dataDir, log);
    expect(handle.owned).toBe(true);
    expect(handle.pid).not.toBe(owner.pid);
    expect(isProcessRunning(owner.pid)).toBe(false);
    expect(messages().some((message) => message.includes('orphaned'))).toBe(true);
    expect(await query(handle.connectionString, 'select slug from links')).toEqual([{ slug: 'kept' }]);
  });

  it('attaches to the server of a live owner; stop() of the attached handle leaves it running', async () => {
    const dataDir = tempDataDir();
    const owner = await startOwnerProcess(dataDir);

    const attached = await start(dataDir);
    expect(attached.owned).toBe(false);
    expect(attached.pid).toBe(owner.pid);
    expect(attached.connectionString).toBe(owner.connectionString);
    await attached.stop();

    expect(isProcessRunning(owner.pid)).toBe(true);
    expect(await query(attached.connectionString, 'select 1 as one')).toEqual([{ one: 1 }]);
    owner.child.kill('SIGTERM'); // the owner stops its server on the way out
    await once(owner.child, 'exit');
    expect(isProcessRunning(owner.pid)).toBe(false);
  });

  it('starts its server again after a kill -9 of the postmaster, also while a busy backend outlives it', async () => {
    const dataDir = tempDataDir();
    const clusterDir = path.join(dataDir, 'postgres');
    const { log, messages } = capturingLogger();
    const handle = await start(dataDir, log);
    cleanups.push(() => endLeftoverServerProcesses(clusterDir, capturingLogger().log)); // should the test fail
    await query(handle.connectionString, `create table links (slug text); insert into links values ('kept')`);
    // A backend running a statement does not notice its postmaster's death, and holds the old shared
    // memory: PostgreSQL refuses to start next to it.
    const busy = new pg.Client({ connectionString: handle.connectionString });
    busy.on('error', () => {});
    await busy.connect();
    const looping = busy.query('DO $$ BEGIN LOOP END LOOP; END $$').catch((error: Error) => error);
    const killed = handle.pid;

    process.kill(killed, 'SIGKILL');
    await expect.poll(() => handle.status().state).toBe('restarting');
    expect(handle.status()).toMatchObject({ pid: null, restarts: 0, lastExit: { signal: 'SIGKILL' } });
    await expect
      .poll(() => handle.status(), { timeout: 30_000, interval: 200 })
      .toMatchObject({ state: 'running', restarts: 1, lastExit: { signal: 'SIGKILL' } });
    expect(handle.pid).not.toBe(killed);
    expect(handle.status().pid).toBe(handle.pid);
    expect(readPostmasterPidFile(clusterDir)?.pid).toBe(handle.pid);
    expect(await query(handle.connectionString, 'select slug from links')).toEqual([{ slug: 'kept' }]);
    expect(await looping).toBeInstanceOf(Error);
    expect(messages()).toContain('embedded PostgreSQL exited unexpectedly; starting it again');
    expect(messages()).toContain('embedded PostgreSQL restarted');

    await handle.stop(); // a stopped server is not started again
    expect(handle.status().state).toBe('stopped');
    expect(findRunningPostmaster(clusterDir)).toBeNull();
  });

  it('an attached process does not start the server of another app: it reconnects once that app has', async () => {
    const dataDir = tempDataDir();
    const owner = await startOwnerProcess(dataDir);
    const attached = await start(dataDir);
    expect(attached.status()).toMatchObject({ state: 'attached', pid: owner.pid });

    process.kill(owner.pid, 'SIGKILL');
    const clusterDir = path.join(dataDir, 'postgres');
    const restarted = await until(
      async () => findRunningPostmaster(clusterDir),
      (pid) => pid !== null && pid !== owner.pid,
      30_000,
      200,
    );
    expect(restarted).not.toBeNull();
    cleanups.push(() => stopPostmaster(restarted as number, capturingLogger().log)); // should the owner not
    expect(readProcessStat(restarted as number)?.ppid).toBe(owner.child.pid); // the owner started it
    await expect // it may still be starting up
      .poll(() => query(attached.connectionString, 'select 1 as one').catch(String), { timeout: 30_000 })
      .toEqual([{ one: 1 }]);
    expect(attached.status().state).toBe('attached');
  });

  it('starts despite a stale postmaster.pid naming a dead PID or a live non-postgres process', async () => {
    const dataDir = tempDataDir();
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const first = await start(dataDir);
    const pidFileLines = readFileSync(pidFile, 'utf8').split('\n');
    await first.stop();
    const writeStalePidFile = (pid: number) =>
      writeFileSync(pidFile, [pid, ...pidFileLines.slice(1)].join('\n'));

    writeStalePidFile(deadPid());
    const afterDeadPid = capturingLogger();
    await (await start(dataDir, afterDeadPid.log)).stop();
    expect(afterDeadPid.messages().some((message) => message.includes('stale postmaster.pid'))).toBe(true);

    // A recycled PID: a live process of the server's own user, which PostgreSQL alone would take for a
    // running postmaster ("lock file already exists").
    const serverUser = statSync(path.join(dataDir, 'postgres'));
    const sleeper = spawn('sleep', ['60'], { uid: serverUser.uid, gid: serverUser.gid, stdio: 'ignore' });
    cleanups.push(() => sleeper.kill('SIGKILL'));
    writeStalePidFile(sleeper.pid as number);
    mkdirSync(first.socketDir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(first.socketDir, '.s.PGSQL.5432.lock'), `${sleeper.pid}\n`);
    const afterReusedPid = capturingLogger();
    const handle = await start(dataDir, afterReusedPid.log);
    expect(afterReusedPid.messages().some((message) => message.includes('stale postmaster.pid'))).toBe(true);
    expect(handle.pid).not.toBe(sleeper.pid);
    expect(isProcessRunning(sleeper.pid as number)).toBe(true); // left alone
    expect(await query(handle.connectionString, 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('does not take another PostgreSQL whose PID is in a stale postmaster.pid for its own server', async () => {
    const dataDir = tempDataDir();
    await (await start(dataDir)).stop();
    const otherDataDir = tempDataDir();
    const other = await start(otherDataDir);
    // The worst case of PID reuse: the file names a live postmaster with exactly the recorded start time.
    const otherPidFile = readFileSync(path.join(otherDataDir, 'postgres', 'postmaster.pid'), 'utf8');
    writeFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), otherPidFile);

    const handle = await start(dataDir);
    expect(handle.pid).not.toBe(other.pid);
    expect(isProcessRunning(other.pid)).toBe(true);
    expect(await query(other.connectionString, 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('fails with the log tail when the server is not ready in time, and leaves nothing running', async () => {
    const dataDir = tempDataDir();
    const attempt = startEmbeddedPostgres({ dataDir, log: capturingLogger().log, startTimeoutMs: 1 });

    await expect(attempt).rejects.toThrow(/within 1 ms[\s\S]*last lines of .*postgres\.log:\n/);
    expect(findRunningPostmaster(path.join(dataDir, 'postgres'))).toBeNull();
    expect(existsSync(path.join(dataDir, 'postgres.owner'))).toBe(false);
    const handle = await start(dataDir);
    expect(handle.owned).toBe(true);
  });

  it.skipIf(!isRoot)('as root, relocates the cluster when the dataDir sits in a 0700 directory', async () => {
    const dataDir = tempDataDir({ private: true });
    const { log, messages } = capturingLogger();
    const first = await start(dataDir, log);
    await query(first.connectionString, `create table links (slug text); insert into links values ('moved')`);
    await first.stop();

    const clusterDir = readFileSync(path.join(dataDir, 'postgres.location'), 'utf8').trim();
    expect(clusterDir.startsWith('/var/lib/sniplink/clusters/')).toBe(true);
    expect(existsSync(path.join(clusterDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    expect(messages().filter((message) => message.includes('include it in backups'))).toHaveLength(1);

    const again = capturingLogger();
    const second = await start(dataDir, again.log);
    expect(await query(second.connectionString, 'select slug from links')).toEqual([{ slug: 'moved' }]);
    expect(again.messages()).toContain(
      `embedded PostgreSQL cluster is relocated: its files are in ${clusterDir}`,
    ); // info, no second warning
  });

  it.skipIf(!isRoot)(
    'as root, removes at the next start the relocated cluster of a deleted temporary DATA_DIR',
    async () => {
      const dataDir = tempDataDir({ private: true });
      const first = await start(dataDir);
      await first.stop();
      const clusterDir = readFileSync(path.join(dataDir, 'postgres.location'), 'utf8').trim();
      expect(existsSync(path.join(clusterDir, 'PG_VERSION'))).toBe(true);
      rmSync(path.dirname(dataDir), { recursive: true }); // what deleting a test's data leaves behind

      const { log, messages } = capturingLogger();
      await start(tempDataDir(), log);

      expect(existsSync(clusterDir)).toBe(false);
      expect(messages().some((message) => message.startsWith('removed an embedded PostgreSQL cluster'))).toBe(
        true,
      );
    },
  );

  it.skipIf(!isRoot)('as root, copies unreachable binaries once into a world-readable cache', async () => {
    const privateDir = mkdtempSync(path.join(os.tmpdir(), 'sniplink-pg-bin-')); // mode 0700
    const cacheRoot = mkdtempSync(path.join(os.tmpdir(), 'sniplink-pg-cache-'));
    chmodSync(cacheRoot, 0o755);
    cleanups.push(() => rmSync(privateDir, { recursive: true }));
    cleanups.push(() => rmSync(cacheRoot, { recursive: true }));
    const nativeDir = path.join(privateDir, 'native');
    cpSync(PACKAGED_NATIVE_DIR, nativeDir, { recursive: true, verbatimSymlinks: true });
    const { log, messages } = capturingLogger();
    const user = resolveServerUser('sniplink-pg', log);
    expect(succeedsAs(user, path.join(nativeDir, 'bin', 'postgres'), ['--version'])).toBe(false);

    const binaries = reachablePgBinaries(nativeDir, user, cacheRoot, log);
    expect(binaries.postgres.startsWith(`${cacheRoot}/pg-17.`)).toBe(true);
    expect(succeedsAs(user, binaries.postgres, ['--version'])).toBe(true);
    expect(lstatSync(path.join(binaries.postgres, '../../lib/libpq.so')).isSymbolicLink()).toBe(true);
    expect(reachablePgBinaries(nativeDir, user, cacheRoot, log)).toEqual(binaries);
    expect(messages().filter((message) => message.includes('copying'))).toHaveLength(1);
  });
});
