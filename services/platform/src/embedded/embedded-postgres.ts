import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../logging';
import { type ClusterLayout, removeSocketDirIfEmpty, resolveClusterLayout } from './cluster-layout';
import { claimOwnership, isCurrentProcess, type OwnerRecord, releaseOwnership } from './ownership';
import { type PgBinaries, resolvePgBinaries, SNIPLINK_STATE_DIR } from './pg-binaries';
import {
  endLeftoverServerProcesses,
  findRunningPostmaster,
  readPostmasterPidFile,
  removeStaleLockFiles,
  stopPostmaster,
} from './postmaster';
import { removeAbandonedClusters } from './relocated-clusters';
import {
  connectionStringFor,
  initCluster,
  isClusterInitialised,
  spawnPostmaster,
  waitUntilReady,
} from './server-process';
import { resolveServerUser, type ServerUser } from './server-user';
import { type EmbeddedServerStatus, ServerSupervisor } from './supervisor';

export type { EmbeddedServerStatus } from './supervisor';

export interface EmbeddedPostgresOptions {
  /** The app's DATA_DIR; the cluster lives in `${dataDir}/postgres` when the server user can reach it. */
  dataDir: string;
  /** OS user that runs the server when this process is root; default 'sniplink-pg'. */
  runAsUser?: string;
  log: Logger;
  /** Default 60000. */
  startTimeoutMs?: number;
}

export interface EmbeddedPostgresHandle {
  /** postgresql://postgres@localhost/postgres?host=<socketDir>&port=5432 (superuser, trust auth). */
  readonly connectionString: string;
  /** True when this process started the server; false when it attached to a live app process's server. */
  readonly owned: boolean;
  /** Postmaster PID (owned: the current one; it changes when a server that died is started again). */
  readonly pid: number;
  readonly socketDir: string;
  /**
   * Owned: whether the server runs or is being started again after it died, with the restarts so far.
   * Attached: 'attached' (the owning app restarts it; this process only reconnects).
   */
  status(): EmbeddedServerStatus;
  /** Owned: fast shutdown, escalating after 10 s. Attached: no-op. Idempotent. */
  stop(): Promise<void>;
  /**
   * For a process about to exit without a clean stop (a second Ctrl-C, a stop past its grace): asks an
   * owned server for a fast shutdown, which it finishes on its own, instead of leaving it running.
   * Attached: no-op.
   */
  abandon(): void;
}

interface StartContext {
  user: ServerUser;
  binaries: PgBinaries;
  layout: ClusterLayout;
  timeoutMs: number;
  log: Logger;
}

/**
 * Starts the embedded PostgreSQL server for this data dir, or attaches to it when another live app process
 * (e.g. the running app, while an operator runs a CLI command) owns it. Leftovers of a killed app (stale
 * lock files, an orphaned server) are cleaned up first.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const log = options.log.child({ component: 'embedded-postgres' });
  const user = resolveServerUser(options.runAsUser ?? 'sniplink-pg', log);
  if (user.switchUser) removeAbandonedClustersSafely(log);
  const context: StartContext = {
    user,
    binaries: resolvePgBinaries(user, log),
    layout: resolveClusterLayout(options.dataDir, user, SNIPLINK_STATE_DIR, log),
    timeoutMs: options.startTimeoutMs ?? 60_000,
    log,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = claimOwnership(context.layout.ownerFile);
    if (claim.kind === 'claimed') return startOwned(context);
    if (!ownerServerIsGone(claim.owner, context.layout)) return attach(context, claim.owner);
    releaseOwnership(context.layout.ownerFile); // our own earlier server died: start a new one
  }
  throw new Error(`Cannot start or attach to the embedded PostgreSQL in ${context.layout.dataDir}`);
}

/** Relocated clusters (only made as root) of temporary DATA_DIRs that are gone; a failure only warns. */
function removeAbandonedClustersSafely(log: Logger): void {
  try {
    removeAbandonedClusters(SNIPLINK_STATE_DIR, log, { onlyTemporary: true });
  } catch (error) {
    log.warn({ err: error }, 'could not look for abandoned embedded PostgreSQL clusters');
  }
}

/** Only for our own process can we tell "its server died" from "it is still starting its server". */
function ownerServerIsGone(owner: OwnerRecord, layout: ClusterLayout): boolean {
  return isCurrentProcess(owner) && findRunningPostmaster(layout.clusterDir) === null;
}

async function startOwned(context: StartContext): Promise<EmbeddedPostgresHandle> {
  const { layout, log } = context;
  try {
    await retirePreviousServer(layout, log);
    if (!isClusterInitialised(layout.clusterDir)) {
      log.info({ clusterDir: layout.clusterDir }, 'initialising embedded PostgreSQL cluster');
      await initCluster(context.binaries, layout, context.user);
    }
    return ownedHandle(context, await launch(context, () => false));
  } catch (error) {
    releaseOwnership(layout.ownerFile);
    throw error;
  }
}

/** The app that owned a still-running server was killed: stop that orphan, and clear stale lock files. */
async function retirePreviousServer(layout: ClusterLayout, log: Logger): Promise<void> {
  const orphanPid = findRunningPostmaster(layout.clusterDir);
  if (orphanPid !== null) {
    log.warn(
      { postgresPid: orphanPid },
      'stopping orphaned PostgreSQL server left by an app process that is gone',
    );
    await stopPostmaster(orphanPid, log);
  }
  await clearDeadServer(layout, log);
}

/** What a server that died leaves behind: processes that outlived its postmaster, and its lock files. */
async function clearDeadServer(layout: ClusterLayout, log: Logger): Promise<void> {
  await endLeftoverServerProcesses(layout.clusterDir, log);
  removeStaleLockFiles(layout.clusterDir, layout.socketDir, log);
}

/** Spawns the postmaster and waits until it answers; stops it again if it does not (or once cancelled). */
async function launch(context: StartContext, cancelled: () => boolean): Promise<ChildProcess> {
  const { layout, log } = context;
  const startedAt = Date.now();
  const child = spawnPostmaster(context.binaries, layout, context.user);
  try {
    await waitUntilReady({
      connectionString: connectionStringFor(layout.socketDir),
      timeoutMs: context.timeoutMs,
      logFile: layout.logFile,
      failure: () => (cancelled() ? 'was stopped' : exitDescription(child)),
    });
  } catch (error) {
    if (child.pid !== undefined && hasNotExited(child)) await stopPostmaster(child.pid, log);
    throw error;
  }
  log.info(
    { postgresPid: child.pid, clusterDir: layout.clusterDir, ms: Date.now() - startedAt },
    'embedded PostgreSQL ready',
  );
  return child;
}

function hasNotExited(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exitDescription(child: ChildProcess): string | null {
  if (child.pid === undefined) return 'could not be spawned';
  if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
  return child.signalCode !== null ? `was killed by ${child.signalCode}` : null;
}

/** The handle of a server this process started, and now supervises: one that dies is started again. */
function ownedHandle(context: StartContext, child: ChildProcess): EmbeddedPostgresHandle {
  const { layout, log } = context;
  const supervisor = new ServerSupervisor(child, {
    log,
    clearLeftovers: () => clearDeadServer(layout, log),
    start: (cancelled) => launch(context, cancelled),
    stopServer: (pid) => stopPostmaster(pid, log),
  });
  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    await supervisor.stop();
    removeSocketDirIfEmpty(layout.socketDir); // a clean shutdown removed the socket and its lock file
    releaseOwnership(layout.ownerFile);
    log.info({ postgresPid: supervisor.pid }, 'embedded PostgreSQL stopped');
  };
  return {
    connectionString: connectionStringFor(layout.socketDir),
    owned: true,
    get pid() {
      return supervisor.pid;
    },
    socketDir: layout.socketDir,
    status: () => supervisor.status(),
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
    abandon: () => supervisor.abandon(),
  };
}

/** Uses the server of the live owner; it may still be starting, so wait until it answers. */
async function attach(context: StartContext, owner: OwnerRecord): Promise<EmbeddedPostgresHandle> {
  const { layout, log } = context;
  const connectionString = connectionStringFor(layout.socketDir);
  await waitUntilReady({
    connectionString,
    timeoutMs: context.timeoutMs,
    logFile: layout.logFile,
    failure: () => null,
  }).catch((error: Error) => {
    throw new Error(`App process ${owner.pid} owns the embedded PostgreSQL, but: ${error.message}`);
  });
  const pid = readPostmasterPidFile(layout.clusterDir)?.pid ?? -1;
  log.info(
    { postgresPid: pid, ownerPid: owner.pid },
    'attached to embedded PostgreSQL owned by another app process',
  );
  return {
    connectionString,
    owned: false,
    pid,
    socketDir: layout.socketDir,
    status: () => ({ state: 'attached', pid, restarts: 0, lastExit: null }),
    stop: async () => {},
    abandon: () => {},
  };
}

export { SNIPLINK_STATE_DIR } from './pg-binaries';
export { listRelocatedClusters, type RelocatedCluster, removeAbandonedClusters } from './relocated-clusters';
