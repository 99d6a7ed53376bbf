import { readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logging';
import { SOCKET_NAME } from './cluster-layout';
import {
  childPidsOf,
  isProcessRunning,
  type ProcessStat,
  processStartEpochSeconds,
  readProcessStat,
  sendSignal,
  waitForExit,
} from './process-info';

/** The first lines of PostgreSQL's `postmaster.pid` lock file. */
export interface PostmasterPidFile {
  pid: number;
  dataDir: string;
  /** Postmaster start time, seconds since the epoch. */
  startEpoch: number;
}

// The last step of a 25-s stop (services/standalone/src/process.ts): a checkpoint of this app's data takes
// well under it; an immediate shutdown loses nothing committed (the WAL is replayed at the next start).
export const FAST_SHUTDOWN_GRACE_MS = 10_000;
const IMMEDIATE_SHUTDOWN_GRACE_MS = 5_000;
// Backends notice their postmaster's death when they next wait; one busy with a statement does not.
const LEFTOVER_GRACE_MS = 3_000;
// The pid file's start time is taken right after exec; allow for a slow start and rounding to seconds.
const START_TIME_TOLERANCE_S = 5;

export function readPostmasterPidFile(clusterDir: string): PostmasterPidFile | null {
  let lines: string[];
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const startEpoch = Number(lines[2]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(startEpoch)) return null;
  return { pid, dataDir: lines[1] ?? '', startEpoch };
}

/**
 * The PID of the postmaster serving this cluster, or null. The PID in postmaster.pid only counts when that
 * process is a `postgres` for this data directory that started when the file says: after a crash and a
 * reboot (or just many processes later) the PID may belong to anything, including another PostgreSQL.
 */
export function findRunningPostmaster(clusterDir: string): number | null {
  const pidFile = readPostmasterPidFile(clusterDir);
  if (!pidFile) return null;
  const stat = readProcessStat(pidFile.pid);
  if (!stat || !isProcessRunning(pidFile.pid) || stat.comm !== 'postgres') return null;
  const startedAt = processStartEpochSeconds(stat);
  if (Math.abs(startedAt - pidFile.startEpoch) > START_TIME_TOLERANCE_S) return null;
  return sameDirectory(dataDirArgument(pidFile.pid), clusterDir) ? pidFile.pid : null;
}

/** The `-D` argument the postmaster was started with (the postmaster keeps its command line intact). */
function dataDirArgument(pid: number): string | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const index = args.indexOf('-D');
    return index >= 0 ? (args[index + 1] ?? null) : null;
  } catch {
    return null;
  }
}

function sameDirectory(a: string | null, b: string): boolean {
  try {
    return a !== null && realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Removes lock files of a server that is gone. PostgreSQL would refuse to start if their PID now names
 * another live process of the same user.
 */
export function removeStaleLockFiles(clusterDir: string, socketDir: string, log: Logger): void {
  const stale = readPostmasterPidFile(clusterDir);
  if (stale) log.warn({ stalePid: stale.pid }, 'removing stale postmaster.pid of a server that is gone');
  rmSync(path.join(clusterDir, 'postmaster.pid'), { force: true });
  rmSync(path.join(socketDir, `${SOCKET_NAME}.lock`), { force: true });
  rmSync(path.join(socketDir, SOCKET_NAME), { force: true });
}

/**
 * Processes of this cluster's server that outlived their postmaster (a kill -9 of it, or the OOM killer):
 * a new server refuses to start while they hold the old shared memory ("pre-existing shared memory block
 * is still in use"). Idle ones exit on their own; one running a statement may not until it ends, so
 * after a grace they are killed: a dead server's backends have nothing left to finish. Only call this
 * when no postmaster runs for the cluster: every PostgreSQL process runs in its data directory.
 */
export async function endLeftoverServerProcesses(clusterDir: string, log: Logger): Promise<void> {
  const leftovers = serverProcessesIn(clusterDir);
  if (leftovers.length === 0) return;
  log.warn({ pids: leftovers }, 'waiting for processes of a PostgreSQL server that died to exit');
  if (await waitForAllToExit(leftovers, LEFTOVER_GRACE_MS)) return;
  const stillThere = serverProcessesIn(clusterDir).filter((pid) => leftovers.includes(pid));
  log.warn(
    { pids: stillThere },
    `killing processes of the dead PostgreSQL server after ${LEFTOVER_GRACE_MS} ms`,
  );
  for (const pid of stillThere) sendSignal(pid, 'SIGKILL');
  await waitForAllToExit(stillThere, LEFTOVER_GRACE_MS);
}

/** `postgres` processes whose working directory is the cluster's (a postmaster chdirs there; children inherit it). */
function serverProcessesIn(clusterDir: string): number[] {
  const cluster = realpathSync(clusterDir);
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProcessStat(Number(entry)))
    .filter((stat): stat is ProcessStat => stat?.comm === 'postgres' && stat.state !== 'Z')
    .filter((stat) => workingDirectory(stat.pid) === cluster)
    .map((stat) => stat.pid);
}

function workingDirectory(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null; // gone meanwhile, or not ours to look at
  }
}

async function waitForAllToExit(pids: number[], timeoutMs: number): Promise<boolean> {
  const exited = await Promise.all(pids.map((pid) => waitForExit(pid, timeoutMs)));
  return exited.every(Boolean);
}

/**
 * Fast shutdown (SIGINT: disconnect clients, checkpoint, exit). If that hangs, immediate shutdown
 * (SIGQUIT), then SIGKILL. PostgreSQL puts every backend in its own process group, so the escalation
 * signals the postmaster's group and each child's.
 */
export async function stopPostmaster(pid: number, log: Logger): Promise<void> {
  sendSignal(pid, 'SIGINT');
  if (await waitForExit(pid, FAST_SHUTDOWN_GRACE_MS)) return;
  log.warn(
    { postgresPid: pid },
    `PostgreSQL did not stop within ${FAST_SHUTDOWN_GRACE_MS} ms; immediate shutdown`,
  );
  const children = childPidsOf(pid);
  signalGroups([pid, ...children], 'SIGQUIT');
  if (await waitForExit(pid, IMMEDIATE_SHUTDOWN_GRACE_MS)) return;
  log.error({ postgresPid: pid }, 'PostgreSQL ignored SIGQUIT; killing it');
  signalGroups([pid, ...children, ...childPidsOf(pid)], 'SIGKILL');
  await waitForExit(pid, IMMEDIATE_SHUTDOWN_GRACE_MS);
}

function signalGroups(leaders: number[], signal: NodeJS.Signals): void {
  for (const leader of leaders) {
    sendSignal(-leader, signal);
    sendSignal(leader, signal); // in case it is not a group leader after all
  }
}
