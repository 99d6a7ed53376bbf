import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest } from '../services/platform/src/db/migrate';
import { startEmbeddedPostgres } from '../services/platform/src/embedded/embedded-postgres';
import { connectDatabase, createLogger, type Db, withDatabaseName } from '../services/platform/src/index';
import { migrations } from '../services/standalone/src/features';

export interface BenchServer {
  label: string;
  adminUrl: string;
  stop(): Promise<void>;
}

/** The value after a command-line flag (`--rounds 3` -> '3'), undefined when the flag is absent. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** `--target server` (or DATABASE_URL) uses that PostgreSQL; the default is an embedded one of its own. */
export async function benchServer(): Promise<BenchServer> {
  const target = option('--target') ?? 'embedded';
  if (target === 'server' || process.env.DATABASE_URL) {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('--target server needs DATABASE_URL (a role that may create databases)');
    return { label: `PostgreSQL at ${new URL(adminUrl).host}`, adminUrl, stop: async () => {} };
  }
  const dataDir = await tempDataDir('sniplink-bench-');
  const server = await startEmbeddedPostgres({ dataDir, log: createLogger('warn') });
  return {
    label: 'embedded PostgreSQL',
    adminUrl: server.connectionString,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh, migrated database for one bench run. */
export async function benchDatabase(
  adminUrl: string,
  poolSize = 32,
): Promise<Db & { drop(): Promise<void> }> {
  const name = `sniplink_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const db = connectDatabase(withDatabaseName(adminUrl, name), { poolSize });
  await migrateToLatest(db.db, migrations);
  return {
    ...db,
    drop: async () => {
      await db.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

/** Runs `op` `total` times with `concurrency` in flight; returns operations per second. */
export async function throughput(total: number, concurrency: number, op: (i: number) => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await op(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/** Resident memory of one process, in MB (VmRSS). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Proportional memory (PSS) of a process and all its descendants, in MB: shared pages split fairly. */
export function treePssMb(rootPid: number): { processes: number; pssMb: number; rssMb: number } {
  const pids = processTree(rootPid);
  let pss = 0;
  let rss = 0;
  for (const pid of pids) {
    try {
      pss += Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
      rss += rssMb(pid);
    } catch {}
  }
  return { processes: pids.length, pssMb: pss, rssMb: rss };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** A temporary DATA_DIR the embedded server's user can enter when running as root (mkdtemp gives 0700). */
export async function tempDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/** The embedded server's postmaster PID for a DATA_DIR (its cluster may have been relocated). */
export function postmasterPidOf(dataDir: string): number {
  const location = path.join(dataDir, 'postgres.location');
  const clusterDir = existsSync(location)
    ? readFileSync(location, 'utf8').trim()
    : path.join(dataDir, 'postgres');
  return Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** A process and all its descendants (from /proc). */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(statFields(Number(entry))[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const pids = [rootPid];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i] ?? -1) ?? []));
  return pids;
}

/** /proc/<pid>/stat from field 3 (state) on: index 0 is the state, 1 the parent, 11/12 utime/stime. */
function statFields(pid: number, thread?: number): string[] {
  const stat = readFileSync(
    thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`,
    'utf8',
  );
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process's main thread (the event loop; the other threads are V8's, libuv's, workers'). */
export function mainThreadCpuSeconds(pid: number): number {
  return threadCpuSeconds(pid, pid);
}

/** CPU seconds of one thread of a process (0 once it has ended). */
export function threadCpuSeconds(pid: number, thread: number): number {
  try {
    const fields = statFields(pid, thread);
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of a process tree: every live member's own, plus what the root's children that already
 * exited used (a PostgreSQL backend that ended is reaped by the postmaster).
 */
export function treeCpuSeconds(rootPid: number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) total += cpuSeconds(pid);
  try {
    const fields = statFields(rootPid);
    total += (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {}
  return total;
}

/** Creates and drops databases on a server (for the app processes a bench starts on `--target server`). */
export async function createDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  return {
    url: withDatabaseName(adminUrl, name),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The postmaster of the server behind a connection string, when it runs on this machine (else null). */
export async function postmasterPidOfServer(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = rows[0]?.pid;
    if (backend === undefined || !existsSync(`/proc/${backend}`)) return null;
    return Number(statFields(backend)[1]);
  } finally {
    await client.end();
  }
}

/** CPU seconds the whole machine has been busy (all cores, /proc/stat: everything but idle and iowait). */
export function machineBusySeconds(): number {
  const fields =
    readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
  return (total - (fields[3] ?? 0) - (fields[4] ?? 0)) / TICKS_PER_SECOND;
}
