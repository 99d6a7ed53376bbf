/**
 * `npm run bench:clicks [-- --target server] [--clicks N] [--stream kafka]`: click ingest into the
 * analytics read model. `--stream kafka` measures the Kafka click stream (KAFKA_BROKERS, default
 * 127.0.0.1:19092 as `npm run kafka:local` starts it; a topic and group of its own) after the PostgreSQL
 * one, each on a fresh database, in the same run, and prints both side by side.
 *
 * Live: a ClickBuffer publishes N clicks (200,000 by default, over 5,000 links, in the current hour, one
 * bot in twenty) into the PostgreSQL click stream of a fresh database as fast as it takes them, while
 * ClickAnalytics consumes in the same process (as in the standalone app). Prints the lag every second,
 * next to a baseline measured in the same run: an INSERT of the same message lines as plain rows (500-row
 * unnest, a row per click), one batch at a time as the buffer publishes. When the consumer keeps up, its rate is
 * the publisher's: the lag is the figure to read.
 *
 * Backlog: with the consumer stopped, N more clicks are published; then a fresh ClickAnalytics counts them
 * all. That rate is the consumer's capacity (what traffic it can take before a backlog grows).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type Click, clickMessage } from '@sniplink/contracts';
import {
  CLICKS_PROGRESS_CHANNEL,
  ClickAnalytics,
  countedClicks,
  hourlyBucketCount,
  linkAnalytics,
} from '@sniplink/projections';
import { ClickBuffer, clickId } from '@sniplink/redirect';
import {
  type ClickStream,
  createLogger,
  KafkaClickStream,
  PgNotifications,
  PostgresClickStream,
} from '../services/platform/src/index';
import {
  benchDatabase,
  benchServer,
  cpuSeconds,
  fmt,
  machineBusySeconds,
  option,
  postmasterPidOfServer,
  treeCpuSeconds,
  treePssMb,
} from './support';

const CLICKS = Number(option('--clicks') ?? 200_000);
const KAFKA = option('--stream') === 'kafka';
/** `npm run kafka:local`'s broker unless told otherwise. */
const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(',').map((broker) => broker.trim());
const LINKS = 5_000;
const PARTITIONS = 8;
const BATCH = 500;
/** The producer waits while this many clicks are buffered (the buffer drops beyond 100,000). */
const HIGH_WATER = 50_000;
const DRAIN_TIMEOUT_MS = 150_000;

const line = (what: string, value: string, note = '') =>
  console.log(`${what.padEnd(58)} ${value.padStart(14)}  ${note}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const links = Array.from({ length: LINKS }, () => randomUUID());
const devices = ['desktop', 'mobile', 'tablet'] as const;
const referrers = ['direct', 'google.com', 't.co', 'facebook.com', 'news.ycombinator.com', 'reddit.com'];
const countries = ['US', 'DE', 'FR', 'JP', 'BR', 'IN', 'GB', 'Unknown'];
const browsers = ['Chrome', 'Safari', 'Firefox', 'Edge'];
const systems = ['Windows', 'macOS', 'iOS', 'Android', 'Linux'];
const pickOf = <T>(list: readonly T[], i: number) => list[i % list.length] as T;

/** Click i: links visited at random, label variety of real traffic, now. */
function clickNumber(i: number): Click {
  return {
    id: clickId(),
    linkId: pickOf(links, Math.floor(Math.random() * LINKS)),
    code: `c${i % LINKS}`,
    atMs: Date.now(),
    country: pickOf(countries, i >> 2),
    device: pickOf(devices, i),
    browser: pickOf(browsers, i >> 3),
    os: pickOf(systems, i),
    referrer: pickOf(referrers, i),
    bot: i % 20 === 0,
  };
}

type BenchDatabase = Awaited<ReturnType<typeof benchDatabase>>;

async function readModelTotals(database: BenchDatabase) {
  const { clicks, botClicks } = await countedClicks(database.db);
  return { humans: clicks, bots: botClicks, buckets: await hourlyBucketCount(database.db) };
}

/** What one stream's run measured, for the comparison at the end. */
interface StreamFigures {
  name: string;
  published: number;
  counted: number;
  backlog: number;
}

/** Baseline: the PostgreSQL stream's INSERT alone, 500 rows a statement, one statement at a time. */
async function measureBaseline(database: BenchDatabase): Promise<number> {
  await database.pool.query(
    'CREATE TABLE bench_messages (partition int, "offset" bigint, key text, value text, PRIMARY KEY (partition, "offset"))',
  );
  const baselineClicks = Math.min(CLICKS, 50_000);
  const started = performance.now();
  for (let i = 0; i < baselineClicks; i += BATCH) {
    const rows = Array.from({ length: BATCH }, (_, k) => clickNumber(i + k));
    await database.pool.query(
      `INSERT INTO bench_messages SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[], $4::text[])`,
      [
        rows.map((_, k) => (i + k) % PARTITIONS),
        rows.map((_, k) => String(i + k)),
        rows.map((row) => row.linkId),
        rows.map((row) => clickMessage(row).value),
      ],
    );
  }
  const baseline = baselineClicks / ((performance.now() - started) / 1000);
  line(
    `baseline: INSERT ${BATCH}-row batches, one at a time (${fmt(baselineClicks)})`,
    `${fmt(baseline)} /s`,
  );
  await database.pool.query('DROP TABLE bench_messages');
  return baseline;
}

/** The live run and the backlog on one click stream, with a fresh database for its read model. */
async function measureStream(kind: 'postgres' | 'kafka', baseline: number): Promise<StreamFigures> {
  const database = await benchDatabase(server.adminUrl, 20);
  const notifications = new PgNotifications({ connectionString: database.connectionString });
  const progress = notifications.channel(CLICKS_PROGRESS_CHANNEL);
  const run = `${process.pid}-${Date.now()}`;
  const stream: ClickStream<string> =
    kind === 'kafka'
      ? new KafkaClickStream<string>({
          brokers: BROKERS,
          topic: `clicks-bench-${run}`,
          partitionCount: PARTITIONS,
          log,
        })
      : new PostgresClickStream<string>({ pool: database.pool, notifications, partitionCount: PARTITIONS });
  // A group of its own on a shared broker (the read model's offsets are the consumer's either way).
  const groupId = kind === 'kafka' ? `analytics-bench-${run}` : undefined;
  const name = kind === 'kafka' ? `Kafka at ${BROKERS.join(',')}` : 'PostgreSQL';
  console.log(`\n--- click stream: ${name} ---`);
  try {
    const pgPid = await postmasterPidOfServer(database.connectionString);
    const analytics = new ClickAnalytics({ db: database.db, stream, log, progress }, { groupId });
    const buffer = new ClickBuffer({ stream, log });
    analytics.start();

    console.log(
      `\n${'t (s)'.padStart(6)}${'published'.padStart(12)}${'counted'.padStart(12)}${'lag'.padStart(10)}${'pub/s'.padStart(10)}${'counted/s'.padStart(11)}`,
    );
    let last = { published: 0, counted: 0 };
    let maxLag = 0;
    let started = performance.now();
    const cpuAtStart = {
      bench: cpuSeconds(process.pid),
      pg: pgPid ? treeCpuSeconds(pgPid) : 0,
      machine: machineBusySeconds(),
    };
    const reporter = setInterval(() => {
      const published = buffer.stats().published;
      const counted = analytics.status().counted;
      maxLag = Math.max(maxLag, published - counted);
      console.log(
        `${fmt((performance.now() - started) / 1000).padStart(6)}${fmt(published).padStart(12)}${fmt(counted).padStart(12)}${fmt(published - counted).padStart(10)}${fmt(published - last.published).padStart(10)}${fmt(counted - last.counted).padStart(11)}`,
      );
      last = { published, counted };
    }, 1_000);

    let pushed = 0;
    while (pushed < CLICKS) {
      if (buffer.stats().buffered >= HIGH_WATER) {
        await sleep(5);
        continue;
      }
      for (let k = 0; k < BATCH && pushed < CLICKS; k++) buffer.push(clickNumber(pushed++));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await buffer.flush(DRAIN_TIMEOUT_MS);
    const publishedIn = (performance.now() - started) / 1000;
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (analytics.status().counted < CLICKS && Date.now() < deadline) await sleep(20);
    const countedIn = (performance.now() - started) / 1000;
    clearInterval(reporter);
    const cpu = {
      bench: (cpuSeconds(process.pid) - cpuAtStart.bench) / countedIn,
      pg: pgPid ? (treeCpuSeconds(pgPid) - cpuAtStart.pg) / countedIn : Number.NaN,
      machine: (machineBusySeconds() - cpuAtStart.machine) / countedIn,
    };
    const status = analytics.status();
    const stats = buffer.stats();
    console.log('');
    line(
      'published through the ClickBuffer',
      `${fmt(CLICKS / publishedIn)} /s`,
      `${fmt(publishedIn, 1)} s, ${fmt((CLICKS / publishedIn / baseline) * 100)} % of baseline, dropped ${stats.dropped}, failed publishes ${stats.failedPublishes}`,
    );
    line(
      'counted by ClickAnalytics (start to last click counted)',
      `${fmt(status.counted / countedIn)} /s`,
      `${fmt(countedIn, 1)} s, ${fmt(status.counted)} counted, ${status.duplicates} duplicates`,
    );
    line(
      'largest lag seen (published - counted)',
      fmt(maxLag),
      `${fmt(countedIn - publishedIn, 1)} s to count the rest after the last publish`,
    );
    line('CPU: this process (producer, buffer, consumer)', `${fmt(cpu.bench * 100)} %`, 'of one core');
    if (pgPid) {
      line('CPU: PostgreSQL, all its processes', `${fmt(cpu.pg * 100)} %`, 'of one core');
      const tree = treePssMb(pgPid);
      line(
        'CPU: the rest of the machine',
        `${fmt((cpu.machine - cpu.bench - cpu.pg) * 100)} %`,
        kind === 'kafka'
          ? '(the Kafka broker, and other work on this shared machine)'
          : '(other work on this shared machine)',
      );
      line(`PostgreSQL after the run, ${tree.processes} processes, PSS`, `${fmt(tree.pssMb, 1)} MB`);
    }
    const totals = await readModelTotals(database);
    const expectedBots = Math.ceil(CLICKS / 20);
    line(
      'read model: human + bot clicks',
      `${fmt(totals.humans)} + ${fmt(totals.bots)}`,
      `expected ${fmt(CLICKS - expectedBots)} + ${fmt(expectedBots)}; ${fmt(totals.buckets)} hourly rows`,
    );
    await buffer.close();
    await analytics.stop();

    // Backlog: N clicks published with nobody consuming, then counted from a cold start.
    started = performance.now();
    for (let i = 0; i < CLICKS; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, CLICKS - i) }, (_, k) => clickNumber(i + k));
      await stream.publish(batch.map(clickMessage));
    }
    line(
      `backlog: ${fmt(CLICKS)} clicks published, nobody consuming`,
      `${fmt(CLICKS / ((performance.now() - started) / 1000))} /s`,
    );
    const drainer = new ClickAnalytics({ db: database.db, stream, log, progress }, { groupId });
    const drainCpuAtStart = { bench: cpuSeconds(process.pid), pg: pgPid ? treeCpuSeconds(pgPid) : 0 };
    started = performance.now();
    drainer.start();
    while (drainer.status().counted < CLICKS && performance.now() - started < DRAIN_TIMEOUT_MS)
      await sleep(10);
    const drainedIn = (performance.now() - started) / 1000;
    await drainer.stop();
    line(
      'backlog counted by a fresh ClickAnalytics (consumer capacity)',
      `${fmt(drainer.status().counted / drainedIn)} /s`,
      `${fmt(drainedIn, 1)} s, ${fmt(drainer.status().counted)} counted; CPU this process ${fmt(((cpuSeconds(process.pid) - drainCpuAtStart.bench) / drainedIn) * 100)} %, PostgreSQL ${pgPid ? fmt(((treeCpuSeconds(pgPid) - drainCpuAtStart.pg) / drainedIn) * 100) : '?'} %`,
    );
    const after = await readModelTotals(database);
    line(
      'read model after both: human + bot clicks',
      `${fmt(after.humans)} + ${fmt(after.bots)}`,
      `expected ${fmt(2 * (CLICKS - expectedBots))} + ${fmt(2 * expectedBots)}`,
    );

    // The dashboard's query for one link, its labels read from the buckets not rolled up yet.
    const timings: number[] = [];
    for (let i = 0; i < 200; i++) {
      const at = performance.now();
      await linkAnalytics(database.db, pickOf(links, i * 37));
      timings.push(performance.now() - at);
    }
    timings.sort((a, b) => a - b);
    line(
      'linkAnalytics of one link (200 links, one at a time)',
      `p50 ${fmt(timings[100] ?? 0, 2)} ms`,
      `p99 ${fmt(timings[198] ?? 0, 2)} ms`,
    );
    return {
      name,
      published: CLICKS / publishedIn,
      counted: status.counted / countedIn,
      backlog: drainer.status().counted / drainedIn,
    };
  } finally {
    // The broker is shared and its topics stay: free the bench's records at least.
    if (kind === 'kafka') {
      await stream
        .deleteRecords(await stream.endOffsets(), { publishedBefore: new Date(Date.now() + 60_000) })
        .catch(() => 0);
    }
    await stream.close();
    await notifications.close();
    await database.drop();
  }
}

const server = await benchServer();
console.log(
  `bench:clicks on ${server.label}, ${os.cpus().length} cores, Node ${process.version}: ${fmt(CLICKS)} clicks over ${fmt(LINKS)} links, ${PARTITIONS} partitions\n`,
);
const log = createLogger('warn');
try {
  const first = await benchDatabase(server.adminUrl, 20);
  const baseline = await measureBaseline(first).finally(() => first.drop());
  const figures: StreamFigures[] = [await measureStream('postgres', baseline)];
  if (KAFKA) figures.push(await measureStream('kafka', baseline));
  if (figures.length > 1) {
    console.log('\n--- end to end: ClickBuffer -> click stream -> analytics read model, same run ---');
    for (const { name, published, counted, backlog } of figures) {
      line(
        `${name}: counted (start to last click counted)`,
        `${fmt(counted)} /s`,
        `published ${fmt(published)} /s; a backlog counted at ${fmt(backlog)} /s`,
      );
    }
  }
} finally {
  await server.stop();
}
