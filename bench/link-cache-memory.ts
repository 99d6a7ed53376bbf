/**
 * `npm run bench:link-cache [-- --target server]`: what a working set of links adds to a redirecting
 * process's memory. Seeds 1,000,000 rows into the links read model of a fresh database (straight SQL: the
 * redirect reads nothing else), then, for each working set, starts a fresh Node process that loads every
 * code of the set through the redirect's own `LinkCache` and reports RSS and heap before and after (each
 * after a full GC). The default cache keeps 100,000 codes; the 1,000,000 row is shown with that default
 * and with a cache as large as the set.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { insertSyntheticLinks } from '../projections/src/links/testing';
import { connectDatabase } from '../services/platform/src/index';
import { LinkCache } from '../services/redirect/src/link-cache';
import { benchDatabase, benchServer, fmt } from './support';

const SEEDED = 1_000_000;
const IN_FLIGHT = 256;
const codeOf = (i: number) => `m${String(i).padStart(7, '0')}`;

interface Measured {
  links: number;
  capacity: number;
  cached: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  seconds: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

function settle() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
}

async function child(url: string, links: number, capacity: number): Promise<Measured> {
  const database = connectDatabase(url, { poolSize: 16 });
  const cache = new LinkCache({ db: database.db }, { capacity });
  await cache.resolve('warm-up-no-such-code'); // loads pg, opens a connection: not the cache's cost
  settle();
  const before = process.memoryUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < links) {
        const found = await cache.resolve(codeOf(next++));
        if (!found) throw new Error('a seeded code was not found');
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  settle();
  const after = process.memoryUsage();
  await database.close();
  return {
    links,
    capacity,
    cached: cache.stats().cached,
    rssBeforeMb: mb(before.rss),
    rssAfterMb: mb(after.rss),
    heapBeforeMb: mb(before.heapUsed),
    heapAfterMb: mb(after.heapUsed),
    seconds,
  };
}

async function measure(url: string, links: number, capacity: number): Promise<Measured> {
  const proc = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', import.meta.filename, '--child', url, String(links), String(capacity)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  proc.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const [code] = await once(proc, 'exit');
  if (code !== 0) throw new Error(`measuring ${links} links exited with ${code}`);
  const result = out.split('\n').find((text) => text.startsWith('RESULT '));
  if (!result) throw new Error(`measuring ${links} links printed no result:\n${out}`);
  return JSON.parse(result.slice('RESULT '.length)) as Measured;
}

if (process.argv[2] === '--child') {
  const [, , , url = '', links = '0', capacity = '0'] = process.argv;
  process.stdout.write(`\nRESULT ${JSON.stringify(await child(url, Number(links), Number(capacity)))}\n`);
} else {
  const server = await benchServer();
  const database = await benchDatabase(server.adminUrl, 4);
  try {
    console.log(
      `bench:link-cache on ${server.label}, ${os.cpus().length} cores, Node ${process.version}\n` +
        'A fresh process per row loads every code of the working set through LinkCache (256 in flight).\n',
    );
    let started = performance.now();
    await insertSyntheticLinks(database.db, SEEDED);
    console.log(
      `seeded ${fmt(SEEDED)} links into the links read model in ${fmt((performance.now() - started) / 1000, 1)} s\n`,
    );
    console.log(
      `${'working set'.padEnd(14)}${'cache capacity'.padStart(16)}${'cached'.padStart(12)}${'RSS added'.padStart(12)}${'heap added'.padStart(12)}${'RSS after'.padStart(12)}${'loads/s'.padStart(10)}`,
    );
    for (const [links, capacity] of [
      [10_000, 100_000],
      [100_000, 100_000],
      [1_000_000, 100_000],
      [1_000_000, 1_000_000],
    ] as const) {
      started = performance.now();
      const m = await measure(database.connectionString, links, capacity);
      console.log(
        `${fmt(links).padEnd(14)}${fmt(capacity).padStart(16)}${fmt(m.cached).padStart(12)}${`${fmt(m.rssAfterMb - m.rssBeforeMb, 1)} MB`.padStart(12)}${`${fmt(m.heapAfterMb - m.heapBeforeMb, 1)} MB`.padStart(12)}${`${fmt(m.rssAfterMb)} MB`.padStart(12)}${fmt(links / m.seconds).padStart(10)}`,
      );
    }
    console.log(
      '\n(RSS and heap after a full GC, before and after loading; target: 10,000 links add at most 50 MB)',
    );
  } finally {
    await database.drop();
    await server.stop();
  }
}
