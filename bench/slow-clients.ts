/**
 * `npm run bench:slow-clients [-- --target server] [--sockets 1000]`: what stalled uploads cost the app.
 *
 * Starts the app as `npm start` does (embedded default, or on a fresh database at DATABASE_URL), then, one
 * shape after the other, opens `--sockets` connections that each send the head of a JSON `POST` (a declared
 * `Content-Length`) and part of its body, and then stall: they send nothing more and never close. Samples the
 * app process's RSS the whole time and prints it before, at its peak while the uploads arrive, once they all
 * stall, and after the connections are gone (closed by the server's request timeout, or else by this script
 * once the timeout and a margin have passed), next to the memory target (docs/operations.md, "Memory": 250 MB). Also
 * what the server answered the stalled connections and how long it kept them.
 */
import { rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { createDatabase, fmt, option, rssMb, tempDataDir } from './support';

const SOCKETS = Number(option('--sockets') ?? 1000);
/** docs/operations.md, "Memory": an app process peaks under 250 MB (190-234 MB under the redirect load). */
const BUDGET_MB = 250;
/** The app's request timeout (`REQUEST_TIMEOUT_MS`); the bench waits this long, plus a margin, for it. */
const TIMEOUT_MS = Number(option('--timeout-ms') ?? 30_000);
const MARGIN_MS = 15_000;
const KB = 1024;

interface Shape {
  name: string;
  declared: number;
  sent: number;
  /** Each connection from an address of its own (X-Forwarded-For behind TRUST_PROXY=1), else all from one. */
  manyAddresses?: boolean;
}

const SHAPES: Shape[] = [
  { name: 'declared 100 KB, 1 byte sent', declared: 100 * KB, sent: 1 },
  { name: 'declared 1 MB, all but 1 byte sent', declared: 1024 * KB, sent: 1024 * KB - 1 },
  { name: 'declared 64 KB, all but 1 byte sent', declared: 64 * KB, sent: 64 * KB - 1 },
  { name: '  the same from 1,000 addresses', declared: 64 * KB, sent: 64 * KB - 1, manyAddresses: true },
];

interface Stalled {
  socket: net.Socket;
  /** What the server answered: its status codes in order ('' while it has said nothing). */
  answers(): string;
  closedAfterMs: number | undefined;
}

/** Opens one connection, writes the head and `shape.sent` bytes of the body, and resolves once they are sent. */
async function stall(
  port: number,
  shape: Shape,
  body: Buffer,
  startedAt: number,
  address: string,
): Promise<Stalled> {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  const stalled: Stalled = {
    socket,
    answers: () => [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]).join(', then '),
    closedAfterMs: undefined,
  };
  socket.on('data', (chunk) => {
    answer += chunk.toString('latin1');
  });
  socket.on('close', () => {
    stalled.closedAfterMs = performance.now() - startedAt;
  });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const head =
    'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    `X-Forwarded-For: ${address}\r\nContent-Length: ${shape.declared}\r\n\r\n`;
  socket.write(head);
  await new Promise<void>((resolve) => socket.write(body.subarray(0, shape.sent), () => resolve()));
  return stalled;
}

/** Peak RSS of the app while `work` runs, sampled every 50 ms. */
async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rssMb(pid);
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(pid));
  }, 50);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peakMb, rssMb(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

interface Measured {
  beforeMb: number;
  peakMb: number;
  stalledMb: number;
  afterMb: number;
  answers: Map<string, number>;
  closedByServer: number;
  slowestCloseS: number;
}

async function measure(app: AppProcess, shape: Shape): Promise<Measured> {
  const pid = app.child.pid ?? 0;
  const port = Number(new URL(app.baseUrl).port);
  const body = Buffer.alloc(shape.declared, 'a');
  const beforeMb = rssMb(pid);
  const startedAt = performance.now();
  const { result: sockets, peakMb } = await peakRssDuring(pid, async () => {
    const opened: Stalled[] = [];
    // 100 at a time: the listen backlog of a loopback port is not the subject here.
    for (let at = 0; at < SOCKETS; at += 100) {
      const batch = Math.min(100, SOCKETS - at);
      const addressOf = (i: number) =>
        shape.manyAddresses ? `10.${Math.floor((at + i) / 250)}.${(at + i) % 250}.1` : '203.0.113.1';
      opened.push(
        ...(await Promise.all(
          Array.from({ length: batch }, (_, i) => stall(port, shape, body, startedAt, addressOf(i))),
        )),
      );
    }
    await sleep(1_000);
    return opened;
  });
  const stalledMb = rssMb(pid);
  const deadline = startedAt + TIMEOUT_MS + MARGIN_MS;
  while (performance.now() < deadline && sockets.some((s) => s.closedAfterMs === undefined)) await sleep(200);
  const closedByServer = sockets.filter((s) => s.closedAfterMs !== undefined).length;
  const slowestCloseS = Math.max(0, ...sockets.map((s) => (s.closedAfterMs ?? 0) / 1000));
  for (const { socket } of sockets) socket.destroy();
  await sleep(3_000);
  const answers = new Map<string, number>();
  for (const socket of sockets) {
    const said = socket.answers() || 'nothing';
    answers.set(said, (answers.get(said) ?? 0) + 1);
  }
  return { beforeMb, peakMb, stalledMb, afterMb: rssMb(pid), answers, closedByServer, slowestCloseS };
}

const onServer = option('--target') === 'server' || Boolean(process.env.DATABASE_URL);
const dataDir = await tempDataDir('sniplink-bench-slow-');
const cleanups: (() => Promise<unknown>)[] = [() => rm(dataDir, { recursive: true, force: true })];
let app: AppProcess | undefined;
try {
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
    // One proxy in front (X-Forwarded-For): lets the bench speak from many client addresses.
    TRUST_PROXY: '1',
  };
  let label = 'the embedded default (one app process, its embedded PostgreSQL)';
  if (onServer) {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('--target server needs DATABASE_URL (a role that may create databases)');
    const database = await createDatabase(adminUrl, 'sniplink_bench_slow');
    cleanups.unshift(database.drop);
    env.DATABASE_URL = database.url;
    label = `the app on PostgreSQL at ${new URL(adminUrl).host}`;
  } else {
    env.DATABASE_URL = undefined;
  }
  console.log(
    `bench:slow-clients on ${label}\n${os.cpus().length} cores, Node ${process.version}, ${fmt(SOCKETS)} stalled uploads per shape ` +
      `(POST /api/auth/login), REQUEST_TIMEOUT_MS ${fmt(TIMEOUT_MS)}; the app's RSS against the ${BUDGET_MB} MB of docs/operations.md\n`,
  );
  app = await startAppProcess(env);
  await sleep(3_000); // the start's garbage collected, the click thread settled
  console.log(`app at rest: ${fmt(rssMb(app.child.pid ?? 0))} MB RSS\n`);
  const columns = ['RSS before', 'peak', 'stalled', 'after'];
  console.log(
    `${'shape'.padEnd(38)}${columns.map((c) => c.padStart(11)).join('')}${'closed by server'.padStart(28)}  answers`,
  );
  let worstMb = 0;
  for (const shape of SHAPES) {
    const m = await measure(app, shape);
    worstMb = Math.max(worstMb, m.peakMb, m.afterMb);
    const answers = [...m.answers].map(([status, count]) => `${fmt(count)} × ${status}`).join('; ');
    console.log(
      `${shape.name.padEnd(38)}${[m.beforeMb, m.peakMb, m.stalledMb, m.afterMb].map((v) => `${fmt(v)} MB`.padStart(11)).join('')}` +
        `${(m.closedByServer === 0 ? 'none' : `${fmt(m.closedByServer)}, the last at ${fmt(m.slowestCloseS, 1)} s`).padStart(28)}  ${answers}`,
    );
  }
  console.log(
    `\nhighest RSS: ${fmt(worstMb)} MB against ${BUDGET_MB} MB: ${worstMb <= BUDGET_MB ? 'within' : 'OVER'}`,
  );
} finally {
  await app?.stop();
  for (const cleanup of cleanups) await cleanup().catch(() => {});
}
