/**
 * `npm run bench:click-thread [-- --target server] [--rate 30000] [--seconds 15]`: what the click pipeline
 * costs per click, thread by thread, without a load generator on the same cores.
 *
 * The app's click thread (the bundle's click-worker.mjs, as the standalone app runs it) is fed by a
 * ClickBuffer at a fixed rate with clicks shaped like bench:redirect's (10,000 links visited at random, one
 * browser). Two phases on fresh databases: the baseline publishes only (a process that redirects and leaves
 * counting to another); the second also counts, as the standalone app does. Each runs a warm-up at the
 * same rate first, then the measured seconds until every click is counted. Prints CPU microseconds per
 * click of the click thread, of the process's other threads (V8's GC and compiler helpers, shared by both
 * isolates), of the main thread (buffering and the hand-off; here also making the clicks) and of
 * PostgreSQL. bench:redirect's "other threads" are the first two together.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ClickBuffer, clickId } from '@sniplink/redirect';
import { ensureServerBuilt } from '@sniplink/test-support/app-process';
import { createLogger } from '../services/platform/src/index';
import { ClickThread } from '../services/standalone/src/click-thread';
import {
  benchDatabase,
  benchServer,
  fmt,
  option,
  postmasterPidOfServer,
  threadCpuSeconds,
  treeCpuSeconds,
} from './support';

const RATE = Number(option('--rate') ?? 30_000);
const SECONDS = Number(option('--seconds') ?? 15);
const WARM_UP_SECONDS = 5;
const LINKS = 10_000;
const PARTITIONS = 8;
// As the standalone app's buffer (runtime.ts): 2,000 clicks a publish, 100 ms at most in memory.
const CLICKS_PER_PUBLISH = 2_000;
const LINGER_MS = 100;
const WORKER_SCRIPT = pathToFileURL(
  path.resolve(import.meta.dirname, '../services/standalone/dist/click-worker.mjs'),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const links = Array.from({ length: LINKS }, () => randomUUID());
const log = createLogger('warn');

const threads = () => readdirSync(`/proc/${process.pid}/task`).map(Number);

/** Pushes clicks at RATE for `seconds` (the redirect's shape: a random link, the same labels), returns how many. */
async function pushAtRate(buffer: ClickBuffer, seconds: number): Promise<number> {
  const started = performance.now();
  let pushed = 0;
  while (performance.now() - started < seconds * 1_000) {
    const due = Math.floor(((performance.now() - started) / 1_000) * RATE);
    for (; pushed < due; pushed++) {
      buffer.push({
        id: clickId(),
        linkId: links[Math.floor(Math.random() * LINKS)] as string,
        code: `c${pushed % LINKS}`,
        atMs: Date.now(),
        country: 'Unknown',
        device: 'desktop',
        browser: 'Chrome',
        os: 'Linux',
        referrer: 'direct',
        bot: false,
      });
    }
    await sleep(2);
  }
  return pushed;
}

interface PhaseResult {
  clicks: number;
  clickThread: number;
  helpers: number;
  main: number;
  postgres: number;
  caughtUpS: number;
}

async function phase(adminUrl: string, consume: boolean): Promise<PhaseResult> {
  const database = await benchDatabase(adminUrl, 4);
  const pgPid = await postmasterPidOfServer(database.connectionString);
  const before = new Set(threads());
  const thread = new ClickThread({
    script: WORKER_SCRIPT,
    workerData: {
      connectionString: database.connectionString,
      clickStream: { kind: 'postgres', partitions: PARTITIONS },
      logLevel: 'warn',
      consume,
      clickLogRetentionMs: 0,
    },
    log,
  });
  thread.start();
  const buffer = new ClickBuffer({
    stream: thread,
    log,
    maxBatch: CLICKS_PER_PUBLISH,
    lingerMs: LINGER_MS,
    capacity: 1_000_000,
  });
  try {
    await sleep(1_000);
    const clickThreadIds = threads().filter((tid) => !before.has(tid));
    const counted = async (clicks: number) => {
      await buffer.flush(60_000);
      const deadline = Date.now() + 60_000;
      while (consume && thread.status().counted < clicks && Date.now() < deadline) await sleep(20);
    };
    const warmUp = await pushAtRate(buffer, WARM_UP_SECONDS);
    await counted(warmUp);

    const cpu = () => {
      const all = threads().map((tid) => [tid, threadCpuSeconds(process.pid, tid)] as const);
      const sum = (pick: (tid: number) => boolean) =>
        all.filter(([tid]) => pick(tid)).reduce((total, [, seconds]) => total + seconds, 0);
      return {
        clickThread: sum((tid) => clickThreadIds.includes(tid)),
        main: sum((tid) => tid === process.pid),
        helpers: sum((tid) => tid !== process.pid && !clickThreadIds.includes(tid)),
        postgres: pgPid ? treeCpuSeconds(pgPid) : Number.NaN,
      };
    };
    const start = cpu();
    const clicks = await pushAtRate(buffer, SECONDS);
    const pushedAt = performance.now();
    await counted(warmUp + clicks);
    const caughtUpS = (performance.now() - pushedAt) / 1_000;
    const end = cpu();
    const perClick = (key: keyof typeof start) => ((end[key] - start[key]) * 1e6) / clicks;
    if (consume && thread.status().counted !== warmUp + clicks)
      throw new Error(`counted ${thread.status().counted} of ${warmUp + clicks} clicks`);
    return {
      clicks,
      clickThread: perClick('clickThread'),
      helpers: perClick('helpers'),
      main: perClick('main'),
      postgres: perClick('postgres'),
      caughtUpS,
    };
  } finally {
    await buffer.close(10_000);
    await thread.stop();
    await database.drop();
  }
}

ensureServerBuilt();
const server = await benchServer();
console.log(
  `bench:click-thread on ${server.label}, Node ${process.version}: ${fmt(RATE)} clicks/s for ${SECONDS} s (after ${WARM_UP_SECONDS} s of warm-up), ${fmt(LINKS)} links, ${PARTITIONS} partitions\n`,
);
try {
  const rows: [string, PhaseResult][] = [];
  rows.push(['publish only (baseline)', await phase(server.adminUrl, false)]);
  rows.push(['publish and count', await phase(server.adminUrl, true)]);
  const us = (value: number) => fmt(value, 2).padStart(9);
  const total = (r: PhaseResult) => r.clickThread + r.helpers + r.main + r.postgres;
  console.log(
    `${'CPU µs per click'.padEnd(26)}${'click thread'.padStart(13)}${'V8 helpers'.padStart(11)}${'main'.padStart(9)}${'PostgreSQL'.padStart(11)}${'total'.padStart(9)}  counted`,
  );
  for (const [name, r] of rows) {
    const caughtUp = name.startsWith('publish and') ? `all, ${fmt(r.caughtUpS, 1)} s after the last` : '-';
    console.log(
      `${name.padEnd(26)}${us(r.clickThread)}    ${us(r.helpers)}${us(r.main)}  ${us(r.postgres)}${us(total(r))}  ${caughtUp}`,
    );
  }
  const [base, full] = rows.map(([, r]) => r) as [PhaseResult, PhaseResult];
  console.log(
    `${'counting adds'.padEnd(26)}${us(full.clickThread - base.clickThread)}    ${us(full.helpers - base.helpers)}${us(full.main - base.main)}  ${us(full.postgres - base.postgres)}${us(total(full) - total(base))}`,
  );
  console.log(
    "(V8 helpers: the process's threads other than the main and the click thread: V8's GC and compiler tasks for both isolates, libuv's pool; \"main\" also makes the clicks here)",
  );
} finally {
  await server.stop();
}
