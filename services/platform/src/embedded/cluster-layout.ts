import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../logging';
import { recordRelocatedCluster } from './relocated-clusters';
import { canReachDir, type ServerUser } from './server-user';

/** Where one embedded cluster keeps its files. */
export interface ClusterLayout {
  dataDir: string;
  /** PostgreSQL's data directory: `${dataDir}/postgres`, or a relocated one (see postgres.location). */
  clusterDir: string;
  /** Private directory holding the server's unix socket; the server listens nowhere else. */
  socketDir: string;
  logFile: string;
  /** Our lock file naming the app process that owns the running server. */
  ownerFile: string;
}

export const SOCKET_NAME = '.s.PGSQL.5432';
// Linux limits a unix socket path to 107 bytes; keep well below (lock file name is the longest).
const MAX_SOCKET_PATH = 100;

export function resolveClusterLayout(
  dataDir: string,
  user: ServerUser,
  stateRoot: string,
  log: Logger,
): ClusterLayout {
  const absoluteDataDir = path.resolve(dataDir);
  mkdirSync(absoluteDataDir, { recursive: true });
  const clusterDir = resolveClusterDir(absoluteDataDir, user, stateRoot, log);
  return {
    dataDir: absoluteDataDir,
    clusterDir,
    socketDir: ensureSocketDir(clusterDir, user),
    logFile: path.join(absoluteDataDir, 'postgres.log'),
    ownerFile: path.join(absoluteDataDir, 'postgres.owner'),
  };
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/**
 * The cluster lives in `${dataDir}/postgres` unless the server user cannot reach it (a parent directory is
 * private to root): then in `${stateRoot}/clusters/<hash>`, recorded in `${dataDir}/postgres.location`.
 */
function resolveClusterDir(dataDir: string, user: ServerUser, stateRoot: string, log: Logger): string {
  const locationFile = path.join(dataDir, 'postgres.location');
  const recorded = existsSync(locationFile) ? readFileSync(locationFile, 'utf8').trim() : '';
  if (recorded) {
    const ours = isInside(recorded, stateRoot);
    ensureServerOwnedDir(recorded, user, ours);
    if (ours) recordRelocatedCluster(recorded, dataDir);
    log.info(
      { clusterDir: recorded, locationFile },
      `embedded PostgreSQL cluster is relocated: its files are in ${recorded}`,
    );
    return recorded;
  }
  const inDataDir = path.join(dataDir, 'postgres');
  ensureServerOwnedDir(inDataDir, user, true);
  if (!user.switchUser || canReachDir(user, inDataDir)) return inDataDir;
  if (existsSync(path.join(inDataDir, 'PG_VERSION'))) {
    throw new Error(`User ${user.name} cannot reach the existing cluster ${inDataDir}; open its parent dirs`);
  }
  rmdirSync(inDataDir); // just created by us and still empty
  const relocated = path.join(stateRoot, 'clusters', shortHash(realpathSync(dataDir)));
  mkdirSync(path.dirname(relocated), { recursive: true, mode: 0o755 });
  ensureServerOwnedDir(relocated, user, true);
  writeFileSync(locationFile, `${relocated}\n`);
  recordRelocatedCluster(relocated, dataDir);
  log.warn(
    { dataDir, clusterDir: relocated, user: user.name },
    `${user.name} cannot reach ${inDataDir} (a parent directory is private), so the embedded PostgreSQL ` +
      `cluster lives in ${relocated} (recorded in ${locationFile}); include it in backups`,
  );
  return relocated;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Creates the directory (mode 0700) and, when we run as root and may, hands it to the server user. */
function ensureServerOwnedDir(dir: string, user: ServerUser, mayChown: boolean): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!user.switchUser || !mayChown || statSync(dir).uid === user.uid) return;
  lchownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    lchownSync(path.join(dir, entry), user.uid, user.gid);
  }
}

/**
 * A private socket directory per cluster, e.g. /tmp/sniplink-pg-<hash>, mode 0700 and owned by the server
 * user. Only that user (and root) can reach the socket, which is what makes `trust` authentication safe.
 */
export function socketDirFor(clusterDir: string): string {
  const name = `sniplink-pg-${shortHash(realpathSync(clusterDir))}`;
  const preferred = path.join(os.tmpdir(), name);
  const fits = path.join(preferred, `${SOCKET_NAME}.lock`).length < MAX_SOCKET_PATH;
  return fits ? preferred : path.join('/tmp', name);
}

function ensureSocketDir(clusterDir: string, user: ServerUser): string {
  const dir = socketDirFor(clusterDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const ours = stat.uid === user.uid || (user.switchUser && stat.uid === 0);
  // Refuse a directory someone else planted in the shared temp dir: they could read or fake our socket.
  if (!stat.isDirectory() || !ours) {
    throw new Error(`Refusing socket directory ${dir}: not a directory owned by ${user.name} (or root)`);
  }
  if (stat.uid !== user.uid) lchownSync(dir, user.uid, user.gid);
  if ((stat.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return dir;
}

export function removeSocketDirIfEmpty(socketDir: string): void {
  try {
    rmdirSync(socketDir);
  } catch {
    // not empty (the server did not shut down cleanly) or already gone: the next start copes with both
  }
}
