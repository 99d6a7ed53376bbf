/**
 * `npm run bench:eventstore [-- --target server]`: append and read throughput of the Postgres event store,
 * each next to a baseline measured in the same run on the same pool (a bare single-row INSERT per
 * transaction), and the app's memory at rest (Node and its embedded PostgreSQL server).
 */
import { rm } from 'node:fs/promises';
import os from 'node:os';
import { eventRegistry } from '@sniplink/contracts';
import { startAppProcess } from '@sniplink/test-support/app-process';
import { v7 as uuidv7 } from 'uuid';
import { type LogPosition, PgNotifications, PostgresEventStore } from '../services/platform/src/index';
import {
  benchDatabase,
  benchServer,
  fmt,
  postmasterPidOf,
  rssMb,
  tempDataDir,
  throughput,
  treePssMb,
} from './support';

// A real event: the store checks each against its schema (the registry) before appending, as in the app.
const event = (n: number) => ({
  id: uuidv7(),
  type: 'LinkCreated',
  data: {
    linkId: uuidv7(),
    ownerId: '0193a1b2-0000-7000-8000-000000000001',
    code: `c${n}`,
    originalUrl: 'https://example.com/a/long/path',
    title: null,
    origin: 'dashboard',
  },
  occurredAt: new Date(),
});
const rows: [string, string, string][] = [];
const report = (what: string, value: string, note = '') => {
  rows.push([what, value, note]);
  console.log(`${what.padEnd(58)} ${value.padStart(14)}  ${note}`);
};

async function measureStore(adminUrl: string) {
  const database = await benchDatabase(adminUrl);
  const notifications = new PgNotifications({ connectionString: database.connectionString });
  const store = new PostgresEventStore({ pool: database.pool, notifications, registry: eventRegistry });
  await database.pool.query('CREATE TABLE bench_baseline (id uuid PRIMARY KEY, data jsonb NOT NULL)');
  const baseline = (i: number) =>
    database.pool.query('INSERT INTO bench_baseline VALUES ($1, $2)', [uuidv7(), JSON.stringify({ n: i })]);
  const run = `${process.pid}-${Date.now()}`;

  for (const concurrency of [1, 16]) {
    const total = concurrency === 1 ? 2_000 : 10_000;
    const base = await throughput(total, concurrency, baseline);
    const appends = await throughput(total, concurrency, (i) =>
      store.appendToStream(`link-${run}-${concurrency}-${i}`, [event(i)], 'no_stream'),
    );
    report(`baseline: single-row INSERT, ${concurrency} in flight`, `${fmt(base)} /s`);
    report(
      `append 1 event to a new stream, ${concurrency} in flight`,
      `${fmt(appends)} /s`,
      `${fmt((appends / base) * 100)} % of baseline`,
    );
  }
  const batched = await throughput(2_000, 16, (i) =>
    store.appendToStream(
      `batch-${run}-${i}`,
      Array.from({ length: 10 }, (_, k) => event(k)),
      'no_stream',
    ),
  );
  report(
    'append 10 events per append, 16 in flight',
    `${fmt(batched * 10)} ev/s`,
    `${fmt(batched)} appends/s`,
  );
  const stream = `hot-${run}`;
  let revision = -1n;
  const sequential = await throughput(2_000, 1, async (i) => {
    revision = (await store.appendToStream(stream, [event(i)], revision < 0n ? 'no_stream' : revision))
      .nextExpectedRevision;
  });
  report('append to one stream with its exact revision, in turn', `${fmt(sequential)} /s`);

  let after: LogPosition | undefined;
  let read = 0;
  const readStarted = performance.now();
  for (;;) {
    const page = await store.readAll({ after, maxCount: 1_000 });
    read += page.events.length;
    after = page.next;
    if (page.events.length < 1_000) break;
  }
  report(
    `read the global log in pages of 1,000 (${fmt(read)} events)`,
    `${fmt(read / ((performance.now() - readStarted) / 1000))} ev/s`,
  );
  const streamReads = await throughput(5_000, 16, () => store.readStream(`batch-${run}-7`));
  report('read a 10-event stream, 16 in flight', `${fmt(streamReads)} /s`);

  const subscription = store.subscribeToAll({ batchSize: 1_000 });
  let seen = 0;
  const subStarted = performance.now();
  for await (const _ of subscription) if (++seen >= read) break;
  await subscription.close();
  report(
    'catch-up subscription from the start',
    `${fmt(seen / ((performance.now() - subStarted) / 1000))} ev/s`,
  );

  await notifications.close();
  await database.drop();
}

async function measureAppAtRest() {
  const dataDir = await tempDataDir('sniplink-bench-app-');
  const app = await startAppProcess({ DATABASE_URL: undefined, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    report('app at rest: Node process RSS', `${fmt(rssMb(app.child.pid ?? 0), 1)} MB`);
    const pgTree = treePssMb(postmasterPidOf(dataDir));
    report(
      `app at rest: embedded PostgreSQL, ${pgTree.processes} processes, PSS`,
      `${fmt(pgTree.pssMb, 1)} MB`,
      `RSS summed ${fmt(pgTree.rssMb, 1)} MB (counts shared pages per process)`,
    );
  } finally {
    await app.stop('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}

const server = await benchServer();
console.log(`bench:eventstore on ${server.label}, ${os.cpus().length} cores, Node ${process.version}\n`);
try {
  await measureStore(server.adminUrl);
} finally {
  await server.stop();
}
if (!process.argv.includes('--no-rest')) await measureAppAtRest();
