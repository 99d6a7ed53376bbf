/**
 * `npm run embedded:clusters [-- --remove-abandoned]`: the embedded PostgreSQL clusters kept outside their
 * DATA_DIR (as root, when the server's user cannot reach DATA_DIR), one line each with its DATA_DIR, its
 * size and its state; `--remove-abandoned` removes those whose DATA_DIR is gone (the app's start only
 * removes those of temporary directories by itself).
 */
import { createLogger } from '@sniplink/platform';
import {
  listRelocatedClusters,
  type RelocatedCluster,
  removeAbandonedClusters,
  SNIPLINK_STATE_DIR,
} from '@sniplink/platform/embedded';

const USAGE = 'usage: npm run embedded:clusters [-- --remove-abandoned]';

function main(argv: string[]): number {
  if (argv.length > 1 || (argv[0] !== undefined && argv[0] !== '--remove-abandoned')) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  if (argv[0] === '--remove-abandoned') {
    const removed = removeAbandonedClusters(SNIPLINK_STATE_DIR, createLogger('silent'), {
      onlyTemporary: false,
    });
    for (const cluster of removed) process.stdout.write(`removed ${line(cluster)}\n`);
    process.stdout.write(`${removed.length} abandoned cluster(s) removed\n`);
    return 0;
  }
  const clusters = listRelocatedClusters(SNIPLINK_STATE_DIR);
  for (const cluster of clusters) process.stdout.write(`${line(cluster)}\n`);
  process.stdout.write(`${clusters.length} cluster(s) in ${SNIPLINK_STATE_DIR}/clusters\n`);
  return 0;
}

function line(cluster: RelocatedCluster): string {
  const size = `${Math.round(cluster.bytes / 1e6)} MB`;
  const why = cluster.reason ? ` (${cluster.reason})` : '';
  return `${cluster.state}${why}\t${size}\t${cluster.clusterDir}\tDATA_DIR ${cluster.dataDir ?? 'unknown'}`;
}

process.exit(main(process.argv.slice(2)));
