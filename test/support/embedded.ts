import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The embedded server's postmaster pid, from its postmaster.pid (gone once the server stopped cleanly). */
export function postmasterPid(dataDir: string): number | null {
  const moved = path.join(dataDir, 'postgres.location');
  const clusterDir = existsSync(moved) ? readFileSync(moved, 'utf8').trim() : path.join(dataDir, 'postgres');
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  return existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
}
