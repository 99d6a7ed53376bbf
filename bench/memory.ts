/**
 * `npm run bench:memory [-- --seconds 25] [--connections 64]`: what the app costs in memory on its embedded
 * default, everything counted.
 *
 * Starts the app with `npm start` (a temporary DATA_DIR, a free loopback port), creates a link, reads the
 * PSS of every process in the tree (the npm wrapper, node, each PostgreSQL process) at rest, then loads
 * `/s/{code}` (wrk when installed, else autocannon) while sampling PSS, and prints idle and peak PSS per
 * process, the totals and the requests/s. Exits non-zero when the peak total is over the budget of
 * docs/operations.md ("Memory").
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClient } from '@sniplink/test-support/api';
import { freePort, isRunning } from '@sniplink/test-support/app-process';
import autocannon from 'autocannon';
import { fmt, option, processTree, tempDataDir } from './support';

const BUDGET_MB = 250;
const SECONDS = Number(option('--seconds') ?? 25);
const CONNECTIONS = Number(option('--connections') ?? 64);

/** PSS in MB and a short name of each process of the tree. */
function sample(rootPid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const pid of processTree(rootPid)) {
    try {
      const pss = Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      const name = cmd.startsWith('postgres:')
        ? cmd.replace(/^postgres: sniplink: /, 'pg ')
        : cmd.slice(0, 60);
      const key = byName.has(name) ? `${name} #${pid}` : name;
      byName.set(key, pss / 1024);
    } catch {}
  }
  return byName;
}

const total = (s: Map<string, number>) => [...s.values()].reduce((a, b) => a + b, 0);

/** Loads the URL for SECONDS and answers its requests/s; runs wrk as a child so that sampling goes on meanwhile. */
async function load(url: string): Promise<number> {
  if (spawnSync('wrk', ['--version']).error === undefined) {
    const wrk = spawn('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    wrk.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await once(wrk, 'exit');
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  }
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return result.requests.average;
}

async function main() {
  const dataDir = await tempDataDir('sniplink-memory-');
  const port = await freePort();
  const app = spawn('npm', ['start'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: undefined,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group, so that the end signals all of it as Ctrl-C would: npm does not pass SIGTERM on.
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (app.exitCode !== null) throw new Error(`npm start exited with ${app.exitCode}`);
      if (i > 600) throw new Error('the app was not ready within 120 s');
      if (
        await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(200);
    }
    const client = new HttpClient(base);
    const signup = await client.post('/api/auth/register', {
      email: 'bench@example.com',
      password: 'correct horse',
    });
    if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}`);
    const link = await client.post<{ shortUrl: string }>('/api/links', {
      originalUrl: 'https://example.com/',
    });
    if (link.status !== 201) throw new Error(`link creation answered ${link.status}: ${link.text}`);
    const code = new URL(link.body.shortUrl).pathname.split('/').pop();
    await sleep(3000);
    const rootPid = app.pid ?? 0;
    const idle = sample(rootPid);
    const peak = new Map<string, number>();
    let peakTotal = 0;
    const sampler = setInterval(() => {
      const now = sample(rootPid);
      for (const [name, mb] of now) peak.set(name, Math.max(peak.get(name) ?? 0, mb));
      peakTotal = Math.max(peakTotal, total(now));
    }, 500);
    const rps = await load(`${base}/s/${code}`);
    clearInterval(sampler);
    console.log(`${'process'.padEnd(64)} ${'idle MB'.padStart(8)} ${'peak MB'.padStart(8)}`);
    for (const name of new Set([...idle.keys(), ...peak.keys()])) {
      console.log(
        `${name.padEnd(64)} ${fmt(idle.get(name) ?? 0, 1).padStart(8)} ${fmt(peak.get(name) ?? 0, 1).padStart(8)}`,
      );
    }
    console.log(
      `${'total (peak: highest sum of one sample)'.padEnd(64)} ${fmt(total(idle), 1).padStart(8)} ${fmt(peakTotal, 1).padStart(8)}`,
    );
    console.log(
      `\n${fmt(rps)} requests/s on /s/{code}, ${CONNECTIONS} connections, ${SECONDS} s; budget ${BUDGET_MB} MB`,
    );
    process.exitCode = peakTotal > BUDGET_MB ? 1 : 0;
  } finally {
    const tree = processTree(app.pid ?? 0);
    process.kill(-(app.pid ?? 0), 'SIGTERM');
    for (let i = 0; i < 300 && tree.some(isRunning); i++) await sleep(100);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
