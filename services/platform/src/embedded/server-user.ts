import { spawnSync } from 'node:child_process';
import os from 'node:os';
import type { Logger } from '../logging';

/** The OS user that runs initdb and the postmaster. */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
  /** True when this process is root and must switch to uid/gid for every PostgreSQL process. */
  switchUser: boolean;
}

const USER_NAME = /^[a-z_][a-z0-9_-]{0,31}$/;
const FALLBACK_USER = 'nobody';

/**
 * PostgreSQL refuses to run as root. As root, run it as `runAsUser` (created as a system user when
 * missing, `nobody` when that fails); otherwise run it as ourselves.
 */
export function resolveServerUser(runAsUser: string, log: Logger): ServerUser {
  if (process.getuid?.() !== 0) return currentUser();
  if (!USER_NAME.test(runAsUser)) throw new Error(`Invalid runAsUser '${runAsUser}': not a Unix user name`);
  const found = lookupUser(runAsUser) ?? createSystemUser(runAsUser, log) ?? lookupUser(FALLBACK_USER);
  if (!found) throw new Error(`Cannot find or create a user to run PostgreSQL as (tried ${runAsUser})`);
  return { ...found, switchUser: true };
}

function currentUser(): ServerUser {
  return { name: os.userInfo().username, uid: os.userInfo().uid, gid: os.userInfo().gid, switchUser: false };
}

type UserEntry = Omit<ServerUser, 'switchUser'>;

function lookupUser(name: string): UserEntry | null {
  const result = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  const fields = result.status === 0 ? result.stdout.trim().split(':') : [];
  if (fields.length < 4) return null;
  return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
}

function createSystemUser(name: string, log: Logger): UserEntry | null {
  const args = [
    '--system',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    name,
  ];
  const result = spawnSync('useradd', args, { encoding: 'utf8' });
  // Another process may have created it at the same moment: look again before giving up.
  const created = lookupUser(name);
  if (created) {
    log.info({ user: name, uid: created.uid }, 'created system user for the embedded PostgreSQL server');
    return created;
  }
  const reason = result.error?.message ?? result.stderr.trim();
  log.warn({ user: name, reason }, `could not create user ${name}; running PostgreSQL as ${FALLBACK_USER}`);
  return null;
}

/** Options for spawn/spawnSync that run the command as the server user, from a directory it can reach. */
export function spawnAs(user: ServerUser): { uid?: number; gid?: number; cwd: string } {
  // cwd '/': our own cwd may be unreadable for that user, and initdb fails if it cannot getcwd().
  return user.switchUser ? { uid: user.uid, gid: user.gid, cwd: '/' } : { cwd: '/' };
}

export function succeedsAs(user: ServerUser, command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { ...spawnAs(user), stdio: 'ignore', timeout: 15_000 });
  return result.status === 0;
}

/** Whether the user can enter and write the directory (which fails when any parent is closed to it). */
export function canReachDir(user: ServerUser, dir: string): boolean {
  return succeedsAs(user, 'sh', ['-c', 'test -x "$1" && test -w "$1"', 'sh', dir]);
}

/** A minimal environment: PG* variables of the caller (PGPORT, PGDATA, ...) must not steer the server. */
export function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
  if (process.env.TZ) env.TZ = process.env.TZ;
  return env;
}
