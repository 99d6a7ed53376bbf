import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readdirSync, readSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { ClusterLayout } from './cluster-layout';
import type { PgBinaries } from './pg-binaries';
import { type ServerUser, serverEnv, spawnAs } from './server-user';

/**
 * Settings for an app server, passed on the command line so they win over postgresql.conf. Durability
 * stays on (fsync, synchronous_commit, full_page_writes are PostgreSQL's defaults, pinned here).
 */
const SERVER_SETTINGS: Record<string, string> = {
  // Unix socket only: never clashes with (or is reachable like) another PostgreSQL on the machine.
  listen_addresses: '',
  unix_socket_permissions: '0700',
  max_connections: '200',
  // Sized for a small server: the read models' working set of a self-hosted instance fits, and every
  // buffer touched counts in the app's memory. The OS page cache holds the rest.
  shared_buffers: '16MB',
  effective_cache_size: '512MB',
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  // Short OLTP queries: JIT compilation only adds latency.
  jit: 'off',
  // Names the server's processes in `ps` ("postgres: sniplink: checkpointer").
  cluster_name: 'sniplink',
};

const MAX_LOG_BYTES = 10 * 1024 * 1024;

export function connectionStringFor(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&port=5432`;
}

export function isClusterInitialised(clusterDir: string): boolean {
  return existsSync(path.join(clusterDir, 'PG_VERSION'));
}

/**
 * Creates the cluster (initdb makes the data directory mode 0700). Authentication is `trust`: only the
 * server user and root can reach the private socket directory, and there is no TCP listener.
 */
export async function initCluster(
  binaries: PgBinaries,
  layout: ClusterLayout,
  user: ServerUser,
): Promise<void> {
  if (readdirSync(layout.clusterDir).length > 0) {
    throw new Error(`${layout.clusterDir} is not empty but holds no PostgreSQL cluster; move it away`);
  }
  const args = ['-D', layout.clusterDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'];
  const child = spawnLogged(binaries.initdb, [...args, '--no-instructions'], layout.logFile, user, false);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) {
    throw new Error(`initdb failed (${signal ?? `exit ${code}`}); ${logTail(layout.logFile)}`);
  }
}

/**
 * Starts the postmaster in its own process group, so a Ctrl-C in the terminal reaches only Node, which
 * then stops the server in order.
 */
export function spawnPostmaster(binaries: PgBinaries, layout: ClusterLayout, user: ServerUser): ChildProcess {
  rotateLogIfLarge(layout.logFile);
  const settings = Object.entries(SERVER_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const args = ['-D', layout.clusterDir, '-k', layout.socketDir, '-p', '5432', ...settings];
  const child = spawnLogged(binaries.postgres, args, layout.logFile, user, true);
  child.unref(); // never keep Node alive for it: a forgotten stop() is recovered as an orphan next time
  return child;
}

/** Output goes to the log file, opened here so it works whatever user the child runs as. */
function spawnLogged(
  command: string,
  args: string[],
  logFile: string,
  user: ServerUser,
  detached: boolean,
): ChildProcess {
  const fd = openSync(logFile, 'a', 0o600);
  try {
    const child = spawn(command, args, {
      ...spawnAs(user),
      env: serverEnv(),
      detached,
      stdio: ['ignore', fd, fd],
    });
    child.on('error', () => {}); // spawn failures surface through the 'exit'/pid checks of the caller
    return child;
  } finally {
    closeSync(fd);
  }
}

function rotateLogIfLarge(logFile: string): void {
  if (existsSync(logFile) && statSync(logFile).size > MAX_LOG_BYTES) renameSync(logFile, `${logFile}.1`);
}

export interface ReadinessOptions {
  connectionString: string;
  timeoutMs: number;
  logFile: string;
  /** Returns why the server cannot come up any more (it exited), or null while it may. */
  failure: () => string | null;
}

/** Connects with `pg` every 100 ms until the server answers, it dies, or the time is up. */
export async function waitUntilReady(options: ReadinessOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = 'no attempt';
  while (Date.now() < deadline) {
    const failure = options.failure();
    if (failure) throw new Error(`PostgreSQL ${failure} during start-up; ${logTail(options.logFile)}`);
    try {
      await probe(options.connectionString);
      return;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await sleep(100);
  }
  throw new Error(
    `PostgreSQL did not accept connections within ${options.timeoutMs} ms (last error: ${lastError}); ` +
      logTail(options.logFile),
  );
}

async function probe(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {}); // a server shutting down mid-probe must not crash the process
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}

/** "last lines of <file>:" plus its last lines, for error messages. */
export function logTail(logFile: string, lineCount = 20): string {
  let text = '';
  try {
    const fd = openSync(logFile, 'r');
    try {
      const size = statSync(logFile).size;
      const length = Math.min(size, 16 * 1024);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return `(no log at ${logFile})`;
  }
  const lines = text.trimEnd().split('\n').slice(-lineCount);
  return `last lines of ${logFile}:\n${lines.join('\n')}`;
}
