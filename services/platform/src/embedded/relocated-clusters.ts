import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../logging';
import { findRunningPostmaster } from './postmaster';

/**
 * A cluster kept outside its DATA_DIR (see cluster-layout.ts) outlives that DATA_DIR: deleting a test's or
 * a trial's data directory left hundreds of MB in `${stateRoot}/clusters`. Each relocated cluster has a
 * record beside it (`<hash>.json`, naming its DATA_DIR), so the clusters whose DATA_DIR is gone can be
 * found: a start removes those whose DATA_DIR was a temporary directory, and lists the others in its log
 * for the operator's command (`npm run embedded:clusters`), because a DATA_DIR on a disk that is not
 * mounted, or one moved elsewhere, looks gone too, and its data must not be.
 */
interface ClusterRecord {
  dataDir: string;
}

export interface RelocatedCluster {
  clusterDir: string;
  /** The DATA_DIR it belongs to; null for a cluster made before records were kept. */
  dataDir: string | null;
  /** running: a server runs in it; kept: its DATA_DIR names it; abandoned: its DATA_DIR is gone. */
  state: 'running' | 'kept' | 'abandoned' | 'unknown';
  /** Why it is abandoned or unknown, for the listing. */
  reason: string;
  bytes: number;
}

const RECORD_SUFFIX = '.json';

export function clustersRoot(stateRoot: string): string {
  return path.join(stateRoot, 'clusters');
}

/**
 * Names the cluster's DATA_DIR: written once that DATA_DIR's `postgres.location` names the cluster (so a
 * concurrent start sees both), and again when the DATA_DIR was moved and started from its new place.
 */
export function recordRelocatedCluster(clusterDir: string, dataDir: string): void {
  if (readRecord(clusterDir)?.dataDir === dataDir) return;
  const record: ClusterRecord = { dataDir };
  writeFileSync(`${clusterDir}${RECORD_SUFFIX}`, `${JSON.stringify(record)}\n`);
}

/** Every cluster under `${stateRoot}/clusters`, with what is known of its DATA_DIR. */
export function listRelocatedClusters(stateRoot: string): RelocatedCluster[] {
  const root = clustersRoot(stateRoot);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => describeCluster(path.join(root, entry.name)));
}

function describeCluster(clusterDir: string): RelocatedCluster {
  const record = readRecord(clusterDir);
  const bytes = directorySize(clusterDir);
  if (!record) {
    return { clusterDir, dataDir: null, state: 'unknown', reason: 'made before records were kept', bytes };
  }
  const base = { clusterDir, dataDir: record.dataDir, bytes };
  if (findRunningPostmaster(clusterDir) !== null) return { ...base, state: 'running', reason: '' };
  const gone = whyAbandoned(clusterDir, record);
  return gone ? { ...base, state: 'abandoned', reason: gone } : { ...base, state: 'kept', reason: '' };
}

/** Null while the DATA_DIR still points at this cluster. */
function whyAbandoned(clusterDir: string, record: ClusterRecord): string | null {
  if (!existsSync(record.dataDir)) return 'its DATA_DIR no longer exists';
  const locationFile = path.join(record.dataDir, 'postgres.location');
  const named = existsSync(locationFile) ? readFileSync(locationFile, 'utf8').trim() : '';
  return named === clusterDir ? null : 'its DATA_DIR was made anew and no longer names it';
}

/**
 * Removes the abandoned clusters (never one a server runs in): at start-up (`onlyTemporary`) those whose
 * DATA_DIR lay in the temporary directory, with a warning naming the rest; from the operator's command,
 * all of them.
 */
export function removeAbandonedClusters(
  stateRoot: string,
  log: Logger,
  options: { onlyTemporary: boolean },
): RelocatedCluster[] {
  const abandoned = listRelocatedClusters(stateRoot).filter((cluster) => cluster.state === 'abandoned');
  const removable = abandoned.filter((cluster) => !options.onlyTemporary || isTemporary(cluster.dataDir));
  for (const cluster of removable) {
    rmSync(cluster.clusterDir, { recursive: true, force: true });
    rmSync(`${cluster.clusterDir}${RECORD_SUFFIX}`, { force: true });
    log.info(
      { clusterDir: cluster.clusterDir, dataDir: cluster.dataDir, mb: megabytes(cluster.bytes) },
      `removed an embedded PostgreSQL cluster: ${cluster.reason}`,
    );
  }
  const kept = abandoned.filter((cluster) => !removable.includes(cluster));
  if (kept.length > 0) {
    log.warn(
      { clusters: kept.map((cluster) => cluster.clusterDir), mb: megabytes(sum(kept)) },
      `${kept.length} embedded PostgreSQL cluster(s) in ${clustersRoot(stateRoot)} belong to a DATA_DIR ` +
        'that is gone (deleted, moved or not mounted): `npm run embedded:clusters` lists them and ' +
        '`-- --remove-abandoned` removes them',
    );
  }
  return removable;
}

function isTemporary(dataDir: string | null): boolean {
  if (dataDir === null) return false;
  return [os.tmpdir(), '/tmp'].some((tmp) => {
    const relative = path.relative(tmp, dataDir);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}

const megabytes = (bytes: number) => Math.round(bytes / 1e6);
const sum = (clusters: RelocatedCluster[]) => clusters.reduce((total, cluster) => total + cluster.bytes, 0);

function readRecord(clusterDir: string): ClusterRecord | null {
  try {
    const record = JSON.parse(readFileSync(`${clusterDir}${RECORD_SUFFIX}`, 'utf8')) as ClusterRecord;
    return typeof record.dataDir === 'string' ? record : null;
  } catch {
    return null;
  }
}

function directorySize(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      bytes += statSync(path.join(entry.parentPath, entry.name)).size;
    } catch {
      // removed while we looked (a running server's temporary file)
    }
  }
  return bytes;
}
