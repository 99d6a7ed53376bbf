/**
 * `npm run bench:backup [-- --target server] [--events 1000000]`: `npm run backup` and `npm run restore` of
 * a log of that many events (one link each, in streams of their own) as the operator runs them, each as a
 * process of its own: time, rate and peak RSS. Baselines in the same run, on the same database: the
 * event table copied to a gzip file by the server's COPY alone (the floor: reading and compressing), and
 * `pg_dump -Fc` / `pg_restore` when this machine's pg_dump has the server's major version.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { eventRegistry } from '@sniplink/contracts';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { v7 as uuidv7 } from 'uuid';
import { type ImportedEvent, PgNotifications, PostgresEventStore } from '../services/platform/src/index';
import { benchDatabase, benchServer, createDatabase, fmt, option, rssMb, tempDataDir } from './support';

const ROOT = path.resolve(import.meta.dirname, '..');
const EVENTS = Number(option('--events') ?? 1_000_000);
const OWNER = '0193a1b2-0000-7000-8000-000000000001';

const report = (what: string, value: string, note = '') =>
  console.log(`${what.padEnd(52)} ${value.padStart(14)}  ${note}`);

/** Runs a command to its end; its wall time and the highest RSS seen (sampled every 100 ms). */
async function measured(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(child.pid as number));
    } catch {}
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr.slice(-2_000)}`);
  if (process.argv.includes('--verbose')) process.stderr.write(stderr);
  return { seconds: (performance.now() - started) / 1000, peakMb: peak, stdout };
}

async function seed(connectionString: string, pool: pg.Pool) {
  const notifications = new PgNotifications({ connectionString });
  const store = new PostgresEventStore({ pool, notifications, registry: eventRegistry });
  const started = performance.now();
  for (let done = 0; done < EVENTS; ) {
    const batch: ImportedEvent[] = [];
    for (; batch.length < 5_000 && done < EVENTS; done++) {
      const linkId = uuidv7();
      batch.push({
        id: uuidv7(),
        streamId: `link-${linkId}`,
        revision: 0n,
        type: 'LinkCreated',
        data: {
          linkId,
          ownerId: OWNER,
          code: `c${done.toString(36)}`,
          originalUrl: `https://example.com/a/long/path/${done}`,
          title: null,
          origin: 'dashboard',
        },
        occurredAt: new Date(),
      });
    }
    await store.importEvents(batch);
  }
  await notifications.close();
  return (performance.now() - started) / 1000;
}

async function main() {
  const server = await benchServer();
  const workDir = await tempDataDir('sniplink-bench-backup-');
  const source = await benchDatabase(server.adminUrl, 4);
  const target = await createDatabase(server.adminUrl, 'sniplink_bench_restore');
  const dumpTarget = await createDatabase(server.adminUrl, 'sniplink_bench_pgrestore');
  try {
    console.log(`${server.label}, ${fmt(EVENTS)} events\n`);
    report(
      'seeded (bulk import, not measured against)',
      `${fmt(await seed(source.connectionString, source.pool), 1)} s`,
    );

    const floorFile = path.join(workDir, 'floor.gz');
    const client = await source.pool.connect();
    const floorStarted = performance.now();
    await pipeline(
      client.query(copyTo('COPY es_events TO STDOUT')),
      createGzip(),
      createWriteStream(floorFile),
    );
    client.release();
    const floor = (performance.now() - floorStarted) / 1000;
    report(
      'baseline: COPY es_events TO STDOUT | gzip',
      `${fmt(floor, 1)} s`,
      `${fmt(EVENTS / floor)} events/s, ${mb(await size(floorFile))}`,
    );

    const backupFile = path.join(workDir, 'sniplink.backup');
    // As package.json's scripts run them: a heap capped at 192 MB, which a backup holding its events would outgrow.
    const tsx = ['--max-old-space-size=192', '--import', 'tsx'];
    const backup = await measured(
      process.execPath,
      [...tsx, path.join(ROOT, 'services/standalone/src/cli/backup.ts'), backupFile],
      {
        DATABASE_URL: source.connectionString,
        LOG_LEVEL: 'warn',
      },
    );
    report(
      'npm run backup',
      `${fmt(backup.seconds, 1)} s`,
      `${fmt(EVENTS / backup.seconds)} events/s, ${mb(await size(backupFile))}, peak RSS ${fmt(backup.peakMb)} MB, ${fmt(backup.seconds / floor, 1)}x the floor`,
    );

    const restore = await measured(
      process.execPath,
      [...tsx, path.join(ROOT, 'services/standalone/src/cli/restore.ts'), backupFile],
      {
        DATABASE_URL: target.url,
        LOG_LEVEL: 'warn',
      },
    );
    report(
      'npm run restore (rows, events, every read model)',
      `${fmt(restore.seconds, 1)} s`,
      `${fmt(EVENTS / restore.seconds)} events/s, peak RSS ${fmt(restore.peakMb)} MB`,
    );

    const version = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
    const serverMajor = (
      await source.pool.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`)
    ).rows[0]?.v.slice(0, 2);
    const dumpMajor = /\s(\d+)\./.exec(version.stdout ?? '')?.[1];
    if (!dumpMajor || dumpMajor !== serverMajor) {
      report(
        'baseline: pg_dump -Fc / pg_restore',
        'skipped',
        `pg_dump ${dumpMajor ?? 'missing'} cannot read PostgreSQL ${serverMajor}: run with DATABASE_URL of a PostgreSQL ${dumpMajor ?? ''} server`,
      );
    } else {
      const dumpFile = path.join(workDir, 'sniplink.dump');
      const dump = await measured('pg_dump', ['-Fc', '-f', dumpFile, '-d', source.connectionString], {});
      report(
        'baseline: pg_dump -Fc (with read models)',
        `${fmt(dump.seconds, 1)} s`,
        `${mb(await size(dumpFile))}; npm run backup takes ${fmt(backup.seconds / dump.seconds, 1)}x`,
      );
      const pgRestore = await measured('pg_restore', ['--no-owner', '-d', dumpTarget.url, dumpFile], {});
      report(
        'baseline: pg_restore',
        `${fmt(pgRestore.seconds, 1)} s`,
        `npm run restore takes ${fmt(restore.seconds / pgRestore.seconds, 1)}x (it also rebuilds the read models)`,
      );
    }
  } finally {
    await source.drop();
    await target.drop();
    await dumpTarget.drop();
    await rm(workDir, { recursive: true, force: true });
    await server.stop();
  }
}

const size = async (file: string) => (await stat(file)).size;
const mb = (bytes: number) => `${fmt(bytes / 1_048_576, 1)} MB`;

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
