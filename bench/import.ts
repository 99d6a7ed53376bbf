/**
 * `npm run bench:import [-- --rows 100000] [--target server]`: `npm run import` of a Bitly CSV export of that
 * many links (each with its own code) into one account, next to a running app, on the embedded default:
 * the time and rate, and the peak RSS of the importing process and of the app (which projects every link).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { HttpClient } from '@sniplink/test-support/api';
import { startAppProcess } from '@sniplink/test-support/app-process';
import { benchServer, createDatabase, fmt, option, rssMb, tempDataDir } from './support';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROWS = Number(option('--rows') ?? 100_000);
const MEMORY_LIMIT_MB = 300;

const report = (what: string, value: string, note = '') =>
  console.log(`${what.padEnd(44)} ${value.padStart(14)}  ${note}`);

/** A Bitly export: one row per link, streamed to disk (the bench holds no more of it than the CLI does). */
async function writeExport(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write('\uFEFFTitle,Bitlink,Long URL,Created,Tags,Clicks\r\n');
  for (let row = 1; row <= ROWS; row++) {
    const line = `"Link ${row}, imported",bit.ly/b${row.toString(36)}k,https://site${row % 997}.example.com/page/${row},2024-03-01T09:15:00+0000,,${row % 50}\r\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
}

/** Runs the CLI to its end, sampling its RSS and the app's every 100 ms. */
async function importMeasured(args: string[], env: NodeJS.ProcessEnv, appPid: number) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--max-old-space-size=192',
      '--max-semi-space-size=1',
      '--import',
      'tsx',
      path.join(ROOT, 'services/standalone/src/cli/import.ts'),
      ...args,
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (process.argv.includes('--verbose')) process.stderr.write(chunk);
  });
  let cliPeak = 0;
  let appPeak = 0;
  const sampler = setInterval(() => {
    try {
      cliPeak = Math.max(cliPeak, rssMb(child.pid as number));
      appPeak = Math.max(appPeak, rssMb(appPid));
    } catch {}
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`npm run import exited ${code}:\n${stderr.slice(-2_000)}`);
  return { seconds: (performance.now() - started) / 1000, cliPeak, appPeak, stdout };
}

async function main() {
  const server = await benchServer();
  const database = await createDatabase(server.adminUrl, 'sniplink_import');
  const dataDir = await tempDataDir('sniplink-bench-import-');
  const file = path.join(dataDir, 'bitly-export.csv');
  const app = await startAppProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  try {
    await writeExport(file);
    const email = `bench.import.${Date.now()}@example.com`;
    const registered = await new HttpClient(app.baseUrl).post('/api/auth/register', {
      email,
      password: 'correct horse',
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
    console.log(`${fmt(ROWS)} rows of a Bitly export imported into one account, ${server.label}`);
    const run = await importMeasured(
      ['--format', 'bitly', '--owner', email, file],
      { DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      app.child.pid as number,
    );
    report(
      'npm run import',
      `${fmt(run.seconds, 1)} s`,
      `${fmt(ROWS / run.seconds)} links/s (under a minute: ${run.seconds < 60 ? 'yes' : 'NO'})`,
    );
    report(
      'peak RSS of the importing process',
      `${fmt(run.cliPeak)} MB`,
      `limit ${MEMORY_LIMIT_MB} MB: ${run.cliPeak < MEMORY_LIMIT_MB ? 'within' : 'OVER'}`,
    );
    report('peak RSS of the app beside it', `${fmt(run.appPeak)} MB`, 'projects every imported link');
    report('report', run.stdout.trim());
  } finally {
    await app.stop();
    await database.drop();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
