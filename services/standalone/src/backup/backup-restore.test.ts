import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Link } from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import {
  countedClicks,
  type HttpClient,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { isRunning } from '@sniplink/test-support/app-process';
import { runCliProcess } from '@sniplink/test-support/cli-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { postmasterPid } from '@sniplink/test-support/embedded';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BACKUP = path.resolve(import.meta.dirname, '../cli/backup.ts');
const RESTORE = path.resolve(import.meta.dirname, '../cli/restore.ts');
const PASSWORD = 'correct horse';
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
];
const REFERRERS = ['https://www.google.com/', 'https://t.co/abc', undefined];

/** The same run every time, so a failure can be replayed; the seed is in the test's name. */
const SEED = 20261128;
function randomFrom(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

interface Person {
  email: string;
  client: HttpClient;
  links: Link[];
}

let api: TestApi;
let workDir: string;
const people: Person[] = [];
let erasedEmail: string;

/** Random sign-ups, links created, edited and deleted, and clicks, through the app's own HTTP API. */
async function randomHistory(app: TestApi): Promise<void> {
  const random = randomFrom(SEED);
  for (let i = 0; i < 4; i++) {
    const { client } = await signedUpClient(app, `backup${i}`);
    const me = await client.get<{ email: string }>('/api/auth/user');
    people.push({ email: me.body.email, client, links: [] });
  }
  for (let step = 0; step < 100; step++) {
    const person = people[random(people.length)] as Person;
    const action = random(20);
    if (action < 4 || person.links.length === 0) {
      const created = await person.client.post<Link>('/api/links', {
        originalUrl: `https://example.com/${step}?q=${random(1000)}`,
        title: `Link ${step}`,
      });
      if (created.status === 201) person.links.push(created.body);
    } else if (action < 6) {
      const link = person.links[random(person.links.length)] as Link;
      await person.client.patch(`/api/links/${link.id}`, { title: `Edited at ${step}` });
    } else if (action < 7) {
      const [link] = person.links.splice(random(person.links.length), 1);
      if (link) await person.client.request('DELETE', `/api/links/${link.id}`);
    } else {
      const link = person.links[random(person.links.length)] as Link;
      const referer = REFERRERS[random(REFERRERS.length)];
      const response = await fetch(`${app.baseUrl}/s/${link.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': AGENTS[random(AGENTS.length)] as string, ...(referer ? { referer } : {}) },
      });
      expect(response.status).toBe(302);
    }
  }
  for (const person of people) {
    for (const link of person.links) await countedClicks(app, link.id);
  }
}

/**
 * Every row of every table, as text, but the bookkeeping a restore does not copy on purpose: the
 * projections' checkpoints, and the log positions read models keep (columns `…_commit`, `…_prepare`),
 * which are the server's transaction ids and differ on any other server.
 */
async function everyRow(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
      AND table_name NOT IN ('es_events', 'projection_checkpoints', 'kysely_migration', 'kysely_migration_lock')
    ORDER BY table_name`.execute(db);
  const all: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ row: string }>`
      SELECT (to_jsonb(t) - ARRAY(
        SELECT column_name::text FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${name}
          AND (column_name LIKE '%\_commit' OR column_name LIKE '%\_prepare')))::text AS row
      FROM ${sql.table(name)} t`.execute(db);
    all[name] = rows.map((row) => row.row).sort();
  }
  return all;
}

/** The event log in its order, without the positions (the server's transaction ids, not the events'). */
async function eventLog(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ event: string }>`
    SELECT concat_ws(' ', event_id, stream_id, revision, type, schema_version, data::text, metadata::text,
      actor_id, occurred_at) AS event
    FROM es_events ORDER BY transaction_id, position`.execute(db);
  return rows.map((row) => row.event);
}

/** A backup's tables (their rows in any order) and events (in order), without the moment it was made. */
async function backupContent(file: string) {
  const [header = '', ...lines] = gunzipSync(await readFile(file))
    .toString('utf8')
    .split('\n');
  const { createdAt: _, ...rest } = JSON.parse(header) as { createdAt: string };
  const eventsAt = lines.indexOf('{"events":"start"}');
  return { header: rest, rows: lines.slice(0, eventsAt).sort(), events: lines.slice(eventsAt) };
}

const backup = (databaseUrl: string, file: string) =>
  runCliProcess(BACKUP, [file], { DATABASE_URL: databaseUrl, DATA_DIR: workDir }, 120_000);
const restore = (env: Record<string, string | undefined>, file: string) =>
  runCliProcess(RESTORE, [file], { DATA_DIR: workDir, ...env }, 180_000);

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-backup-'));
  api = await startTestApi({ TRUST_PROXY: '1' });
  await randomHistory(api);
  erasedEmail = (people.pop() as Person).email;
  const erased = await runCliProcess(
    path.resolve(import.meta.dirname, '../cli/user-erase.ts'),
    [erasedEmail],
    {
      DATABASE_URL: api.database.connectionString,
    },
  );
  expect(erased.status).toBe(0);
}, 120_000);

afterAll(async () => {
  await api?.close();
  if (!process.env.KEEP) await rm(workDir, { recursive: true, force: true });
});

describe(`npm run backup, then npm run restore into a fresh database (seed ${SEED})`, () => {
  let target: TestDatabase;
  let file: string;
  beforeAll(async () => {
    target = await createTestDatabase({ migrate: false });
    file = path.join(workDir, 'sniplink.backup');
  });
  afterAll(() => target?.drop());

  it('backs up while the app runs, with a progress bar, and says what it wrote', async () => {
    const result = await backup(api.database.connectionString, file);
    expect(result.stderr).toMatch(/^rows\s+\[=+\] 100% \| \d+\/\d+/m);
    expect(result.stderr).toMatch(/^events\s+\[=+\] 100% \| (\d+)\/\1/m);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^backed up \d+ events and \d+ rows of \d+ tables from PostgreSQL at [\w.:]+ to .*sniplink\.backup \(\d+\.\d MB\)\n$/,
    );
    const [header] = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n', 1);
    expect(JSON.parse(header as string)).toMatchObject({ format: 'sniplink-backup', version: 1 });
  });

  it('restores every table and the event log in its order, rebuilds every read model, with progress bars', async () => {
    const result = await restore({ DATABASE_URL: target.connectionString }, file);
    expect(result.stderr).toMatch(/^rows\s+\[=+\] 100%/m);
    expect(result.stderr).toMatch(/^events\s+\[=+\] 100%/m);
    expect(result.stderr).toMatch(/^read models\s+\[=+\] 100%/m);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^restored \d+ events and \d+ rows of \d+ tables from .* and rebuilt \d+ read models\n$/,
    );
    expect(await eventLog(target.db)).toEqual(await eventLog(api.database.db));
    expect(await everyRow(target.db)).toEqual(await everyRow(api.database.db));
  });

  it('gives every user the same links and analytics on the restored database; the erased user stays unreadable', async () => {
    const restored = await startTestApi({ DATABASE_URL: target.connectionString, TRUST_PROXY: '1' });
    try {
      let clicks = 0;
      for (const person of people) {
        const client = restored.client();
        const login = await client.post('/api/auth/login', { email: person.email, password: PASSWORD });
        expect(login.status).toBe(200);
        expect((await client.get('/api/links')).body).toEqual((await person.client.get('/api/links')).body);
        expect((await client.get('/api/analytics/user')).body).toEqual(
          (await person.client.get('/api/analytics/user')).body,
        );
        for (const link of person.links) {
          const path = `/api/analytics/link/${link.id}`;
          const analytics = (await client.get<{ clicksByDay: { clicks: number }[] }>(path)).body;
          expect(analytics).toEqual((await person.client.get(path)).body);
          clicks += analytics.clicksByDay.reduce((sum, day) => sum + day.clicks, 0);
        }
      }
      expect(clicks).toBeGreaterThan(10);
      const erased = await restored
        .client()
        .post('/api/auth/login', { email: erasedEmail, password: PASSWORD });
      expect(erased.status).toBe(401);
      // Rebuilt from the restored log, the read models would hold the address again had its key come back.
      const everything = JSON.stringify(await everyRow(target.db)).toLowerCase();
      expect(everything).toContain(people[0]?.email.toLowerCase());
      expect(everything).not.toContain(erasedEmail.toLowerCase());
    } finally {
      await restored.close();
    }
  });

  it('restores into the embedded server of a new DATA_DIR, and a backup of that holds the same', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-restored-'));
    await chmod(dataDir, 0o755);
    try {
      const embedded = { DATABASE_URL: undefined, DATA_DIR: dataDir };
      const restored = await restore(embedded, file);
      expect(restored.stderr).toMatch(/^read models\s+\[=+\] 100%/m);
      expect(restored.status).toBe(0);
      expect(restored.stdout).toMatch(
        / into embedded PostgreSQL \(socket .*\), and rebuilt \d+ read models\n$/,
      );
      const again = path.join(workDir, 'again.backup');
      const backedUp = await runCliProcess(BACKUP, [again], embedded, 120_000);
      expect(backedUp.status).toBe(0);
      expect(await backupContent(again)).toEqual(await backupContent(file));
      // Each command stopped the server it started.
      const pid = postmasterPid(dataDir);
      expect(pid === null || !isRunning(pid)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a database that holds data, and says why', async () => {
    const result = await restore({ DATABASE_URL: target.connectionString }, file);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /The database \(PostgreSQL at [\w.:]+\) is not empty: its event log holds events\./,
    );
  });

  it('refuses a file cut short or not a backup, before it writes anything', async () => {
    const empty = await createTestDatabase({ migrate: false });
    try {
      const whole = gunzipSync(await readFile(file));
      const cut = path.join(workDir, 'cut.backup');
      await writeFile(cut, gzipSync(whole.subarray(0, Math.floor(whole.length * 0.8))));
      const cutShort = await restore({ DATABASE_URL: empty.connectionString }, cut);
      expect(cutShort.status).toBe(2);
      expect(cutShort.stderr).toContain(
        `${cut} is cut short (it has no end line): it is not a whole backup.`,
      );
      const damaged = path.join(workDir, 'damaged.backup');
      await writeFile(damaged, (await readFile(file)).subarray(0, 2_000));
      expect((await restore({ DATABASE_URL: empty.connectionString }, damaged)).stderr).toContain(
        `${damaged} is damaged or cut short`,
      );
      const other = path.join(workDir, 'notes.txt');
      await writeFile(other, 'hello');
      expect((await restore({ DATABASE_URL: empty.connectionString }, other)).stderr).toContain(
        `${other} is not a Sniplink backup`,
      );
      const { rows } = await sql<{ tables: number }>`
        SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = current_schema()`.execute(
        empty.db,
      );
      expect(rows[0]?.tables).toBe(0);
    } finally {
      await empty.drop();
    }
  });
});
