import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ImportJob, Link } from '@sniplink/contracts';
import { HttpClient } from '@sniplink/test-support/api';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROWS = 150;
const tag = Date.now().toString(36).slice(-5);
const codeOf = (row: number) => `r${row}x${tag}`;
const EXPORT = [
  'Bitlink,Long URL,Title',
  ...Array.from(
    { length: ROWS },
    (_, index) => `bit.ly/${codeOf(index + 1)},https://site${index + 1}.example.com/,Row ${index + 1}`,
  ),
].join('\r\n');

let database: TestDatabase;
let dataDir: string;
const started: AppProcess[] = [];
// A Free account may hold this file's links, so that the plan counts every one of them as it does by hand.
const start = async () => {
  const app = await startAppProcess({
    DATABASE_URL: database.connectionString,
    DATA_DIR: dataDir,
    FREE_LINK_LIMIT: String(ROWS * 2),
    LOG_LEVEL: 'warn',
  });
  started.push(app);
  return app;
};

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false, poolSize: 4 });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-import-restart-'));
}, 60_000);
afterAll(async () => {
  for (const app of started) await app.stop('SIGKILL');
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('an import when the app is killed halfway', () => {
  it('resumes after the restart with no link missing and none twice', async () => {
    const first = await start();
    const client = new HttpClient(first.baseUrl);
    const registered = await client.post('/api/auth/register', {
      email: `restart.${tag}@example.com`,
      password: 'correct horse',
    });
    expect(registered.status, registered.text).toBe(201);
    const uploaded = await client.request<ImportJob>('POST', '/api/imports?format=bitly', EXPORT, {
      'content-type': 'text/csv',
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body.preview).toMatchObject({ links: ROWS, codesTaken: 0, allowanceRemaining: ROWS * 2 });
    const id = uploaded.body.id;
    expect((await client.post(`/api/imports/${id}/start`, { conflicts: 'skip' })).status).toBe(200);

    const halfway = await until(
      async () => (await client.get<ImportJob>(`/api/imports/${id}`)).body,
      (job) => job.progress.processed >= 64,
      60_000,
      20,
    );
    expect(halfway.status).toBe('running');
    await first.stop('SIGKILL');

    // A new process takes the job up once the dead one's lease runs out, from its last checkpoint.
    const second = await start();
    const again = new HttpClient(second.baseUrl);
    for (const [name, value] of client.cookies) again.cookies.set(name, value);
    const done = await until(
      async () => (await again.get<ImportJob>(`/api/imports/${id}`)).body,
      (job) => job.status !== 'running',
      150_000,
      250,
    );
    expect(done.status).toBe('done');
    expect(done.progress).toMatchObject({
      total: ROWS,
      processed: ROWS,
      imported: ROWS,
      skipped: 0,
      failed: 0,
    });

    const links = (await again.get<Link[]>('/api/links')).body;
    expect(links).toHaveLength(ROWS);
    const codes = new Set(links.map((link) => link.shortCode));
    expect(codes.size).toBe(ROWS);
    for (let row = 1; row <= ROWS; row++) expect(codes.has(codeOf(row)), codeOf(row)).toBe(true);
    const user = (await again.get<{ linkAllowance: { used: number } }>('/api/auth/user')).body;
    expect(user.linkAllowance.used).toBe(ROWS);
  }, 240_000);
});
