import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clustersRoot,
  listRelocatedClusters,
  recordRelocatedCluster,
  removeAbandonedClusters,
} from './relocated-clusters';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function capturingLogger() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  return { log, messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg) };
}

/** A state root with one fake cluster (a few KB of files) per entry, recorded for `dataDir` unless null. */
function stateRootWith(clusters: Record<string, string | null>): string {
  const stateRoot = mkdtempSync(path.join(os.tmpdir(), 'sniplink-state-'));
  roots.push(stateRoot);
  for (const [name, dataDir] of Object.entries(clusters)) {
    const clusterDir = path.join(clustersRoot(stateRoot), name);
    mkdirSync(path.join(clusterDir, 'base'), { recursive: true });
    writeFileSync(path.join(clusterDir, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(clusterDir, 'base', '1'), Buffer.alloc(4096));
    if (dataDir !== null) recordRelocatedCluster(clusterDir, dataDir);
  }
  return stateRoot;
}

/** A DATA_DIR in the temporary directory whose postgres.location names `clusterDir`. */
function liveDataDir(stateRoot: string, cluster: string): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sniplink-data-'));
  roots.push(dataDir);
  writeFileSync(path.join(dataDir, 'postgres.location'), `${path.join(clustersRoot(stateRoot), cluster)}\n`);
  return dataDir;
}

describe('relocated embedded clusters', () => {
  it('tells a cluster whose DATA_DIR names it from one whose DATA_DIR is gone or made anew', () => {
    const goneTemp = path.join(os.tmpdir(), 'sniplink-data-deleted-long-ago', 'data');
    const stateRoot = stateRootWith({ live: null, gone: goneTemp, remade: null, old: null });
    recordRelocatedCluster(path.join(clustersRoot(stateRoot), 'live'), liveDataDir(stateRoot, 'live'));
    const remade = mkdtempSync(path.join(os.tmpdir(), 'sniplink-data-'));
    roots.push(remade);
    recordRelocatedCluster(path.join(clustersRoot(stateRoot), 'remade'), remade);

    const states = Object.fromEntries(
      listRelocatedClusters(stateRoot).map((cluster) => [path.basename(cluster.clusterDir), cluster]),
    );
    expect(states.live?.state).toBe('kept');
    expect(states.gone).toMatchObject({ state: 'abandoned', dataDir: goneTemp });
    expect(states.gone?.bytes).toBeGreaterThanOrEqual(4096);
    expect(states.remade).toMatchObject({ state: 'abandoned', reason: expect.stringContaining('anew') });
    expect(states.old?.state).toBe('unknown');
  });

  it('at start removes abandoned clusters of temporary DATA_DIRs only, and names the others in a warning', () => {
    const goneTemp = path.join(os.tmpdir(), 'sniplink-data-deleted-long-ago', 'data');
    const goneElsewhere = '/nonexistent-sniplink-volume/data';
    const stateRoot = stateRootWith({ temp: goneTemp, elsewhere: goneElsewhere, old: null, live: null });
    recordRelocatedCluster(path.join(clustersRoot(stateRoot), 'live'), liveDataDir(stateRoot, 'live'));
    const { log, messages } = capturingLogger();

    const removed = removeAbandonedClusters(stateRoot, log, { onlyTemporary: true });

    expect(removed.map((cluster) => cluster.dataDir)).toEqual([goneTemp]);
    expect(existsSync(path.join(clustersRoot(stateRoot), 'temp'))).toBe(false);
    expect(existsSync(path.join(clustersRoot(stateRoot), 'temp.json'))).toBe(false);
    for (const kept of ['elsewhere', 'old', 'live']) {
      expect(existsSync(path.join(clustersRoot(stateRoot), kept, 'PG_VERSION'))).toBe(true);
    }
    expect(messages().some((message) => message.includes('1 embedded PostgreSQL cluster(s)'))).toBe(true);
  });

  it("the operator's command removes every abandoned cluster, never one in use or of unknown owner", () => {
    const stateRoot = stateRootWith({
      elsewhere: '/nonexistent-sniplink-volume/data',
      old: null,
      live: null,
    });
    recordRelocatedCluster(path.join(clustersRoot(stateRoot), 'live'), liveDataDir(stateRoot, 'live'));

    const removed = removeAbandonedClusters(stateRoot, capturingLogger().log, { onlyTemporary: false });

    expect(removed.map((cluster) => path.basename(cluster.clusterDir))).toEqual(['elsewhere']);
    expect(
      listRelocatedClusters(stateRoot)
        .map((cluster) => cluster.state)
        .sort(),
    ).toEqual(['kept', 'unknown']);
  });
});
