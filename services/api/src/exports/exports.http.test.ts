import type { DataExport, Link, Ticket } from '@sniplink/contracts';
import { createLogger, type FixedClock, fixedClock, runAs, uuidV7Ids } from '@sniplink/platform';
import { dailyClicksOf } from '@sniplink/projections';
import {
  countedClicks,
  type HttpClient,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { ExportService } from './export-service';
import { ExportStore } from './export-store';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** Starts an export and waits until it is ready (or failed). */
async function readyExport(client: HttpClient): Promise<DataExport> {
  const started = await client.post<DataExport>('/api/exports');
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ status: 'building', total: 4 });
  const latest = await until(
    async () => (await client.get<{ export: DataExport | null }>('/api/exports/latest')).body.export,
    (shown) => shown?.status !== 'building',
    20_000,
  );
  expect(latest).toMatchObject({ id: started.body.id, status: 'ready', done: 4 });
  return latest as DataExport;
}

async function download(client: HttpClient, url: string): Promise<Response> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return fetch(`${client.baseUrl}${url}`, { headers: { cookie } });
}

/** The ZIP's files by name, as text. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, opened) => (err ? reject(err) : resolve(opened))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
        zip.readEntry();
      });
    });
    zip.readEntry();
  });
  return files;
}

/** The export service as the feature builds it, but on the test's clock (tickets left out). */
function serviceOn(clock: FixedClock): ExportService {
  const { db } = api.runtime.database;
  return new ExportService({
    store: new ExportStore(db),
    clock,
    ids: uuidV7Ids,
    log: createLogger('silent'),
    sources: {
      profile: (id) => api.runtime.accounts.requireUser(id),
      links: (id) => api.runtime.links.list(id),
      dailyClicks: (linkIds) => dailyClicksOf(db, linkIds),
      tickets: async () => [],
      messages: async () => [],
    },
  });
}

describe('Download my data', () => {
  it("holds the user's profile, links with their controls, daily clicks and tickets, as JSON and CSV", async () => {
    const { client } = await signedUpClient(api, 'export.owner');
    await client.patch('/api/user/profile', { firstName: 'Ada', lastName: 'Lovelace' });
    const guarded = (
      await client.post<Link>('/api/links', {
        originalUrl: 'https://example.com/launch',
        title: 'Launch, "day one"',
        password: 'open sesame',
        expiresAt: '2099-01-01T00:00:00.000Z',
        maxClicks: 50,
        fallbackUrl: 'https://example.com/over',
        tags: ['launch', 'q4'],
        rules: [{ when: { country: ['DE'] }, url: 'https://example.de/launch' }],
      })
    ).body;
    const plain = (await client.post<Link>('/api/links', { originalUrl: 'https://example.com/plain' })).body;
    expect(guarded.hasPassword).toBe(true);
    for (let i = 0; i < 3; i++) {
      await fetch(`${api.baseUrl}/s/${plain.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': CHROME },
      });
    }
    expect((await countedClicks(api, plain.id)).clicks).toBe(3);
    const ticket = (
      await client.post<Ticket>('/api/support/tickets', {
        subject: 'Export question',
        message: 'Where are my clicks?',
        priority: 'low',
      })
    ).body;
    await client.post(`/api/support/tickets/${ticket.id}/messages`, { message: 'And my tags?' });

    const ready = await readyExport(client);
    expect(ready.downloadUrl).toBe(`/api/exports/${ready.id}/download`);
    const response = await download(client, ready.downloadUrl as string);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sniplink-data-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(ready.size);
    const files = await unzip(bytes);

    expect([...files.keys()].sort()).toEqual(
      [
        'daily-clicks.csv',
        'daily-clicks.json',
        'links.csv',
        'links.json',
        'profile.csv',
        'profile.json',
        'ticket-messages.csv',
        'tickets.csv',
        'tickets.json',
      ].sort(),
    );
    expect(JSON.parse(files.get('profile.json') as string)).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(files.get('profile.csv')).toContain('Ada,Lovelace');

    const links = JSON.parse(files.get('links.json') as string) as Link[];
    expect(links.map((link) => link.shortCode).sort()).toEqual([guarded.shortCode, plain.shortCode].sort());
    expect(links.find((link) => link.id === guarded.id)).toMatchObject({
      hasPassword: true,
      expiresAt: '2099-01-01T00:00:00.000Z',
      maxClicks: 50,
      fallbackUrl: 'https://example.com/over',
      paused: false,
      tags: ['launch', 'q4'],
      rules: [{ url: 'https://example.de/launch' }],
    });
    const allText = [...files.values()].join('\n');
    expect(allText).not.toContain('open sesame');
    const linksCsv = files.get('links.csv') as string;
    expect(linksCsv).toContain('"Launch, ""day one"""');
    expect(linksCsv).toContain('launch q4,true,2099-01-01T00:00:00.000Z,50,https://example.com/over,false');

    const today = new Date().toISOString().slice(0, 10);
    expect(JSON.parse(files.get('daily-clicks.json') as string)).toEqual([
      { linkId: plain.id, shortCode: plain.shortCode, date: today, clicks: 3 },
    ]);
    expect(files.get('daily-clicks.csv')).toContain(`${plain.id},${plain.shortCode},${today},3`);

    const tickets = JSON.parse(files.get('tickets.json') as string);
    expect(tickets).toMatchObject([
      {
        id: ticket.id,
        subject: 'Export question',
        messages: expect.arrayContaining([expect.objectContaining({ message: 'And my tags?' })]),
      },
    ]);
    expect(files.get('ticket-messages.csv')).toContain('And my tags?');
  });

  it('refuses the download to another user and to anyone signed out', async () => {
    const owner = await signedUpClient(api, 'export.mine');
    const other = await signedUpClient(api, 'export.other');
    const ready = await readyExport(owner.client);
    expect((await download(other.client, ready.downloadUrl as string)).status).toBe(404);
    expect((await download(api.client(), ready.downloadUrl as string)).status).toBe(401);
    expect((await download(owner.client, '/api/exports/not-an-id/download')).status).toBe(404);
    expect((await other.client.get<{ export: null }>('/api/exports/latest')).body.export).toBeNull();
  });

  it('erasing the account deletes its export', async () => {
    const { client, userId } = await signedUpClient(api, 'export.erased');
    await readyExport(client);
    const rowsOf = () =>
      api.database.db
        .withTables<{ user_exports: { user_id: string; export_id: string } }>()
        .selectFrom('user_exports')
        .select('export_id')
        .where('user_id', '=', userId)
        .execute();
    expect(await rowsOf()).toHaveLength(1);
    await runAs('operator', () => api.runtime.accounts.erase(userId));
    expect(await rowsOf()).toEqual([]);
  });

  it('serves the ZIP for a day after it is built, then no more', async () => {
    const { userId } = await signedUpClient(api, 'export.day');
    const clock = fixedClock('2026-11-28T12:00:00.000Z');
    const exports = serviceOn(clock);
    const started = await exports.start(userId);
    await exports.settled();
    expect(await exports.latest(userId)).toMatchObject({
      status: 'ready',
      expiresAt: '2026-11-29T12:00:00.000Z',
    });
    clock.set('2026-11-29T11:59:59.000Z');
    const { zip } = await exports.download(userId, started.id);
    zip.destroy();
    clock.set('2026-11-29T12:00:00.000Z');
    await expect(exports.download(userId, started.id)).rejects.toMatchObject({ status: 404 });
    expect(await exports.latest(userId)).toBeNull();
    // Housekeeping deletes it for good.
    expect(await exports.sweep(async () => true)).toBeGreaterThanOrEqual(1);
  });

  it('shows an export its process abandoned (a restart) as failed, and builds it anew on request', async () => {
    const { userId } = await signedUpClient(api, 'export.restart');
    const clock = fixedClock('2026-11-28T12:00:00.000Z');
    const exports = serviceOn(clock);
    const store = new ExportStore(api.runtime.database.db);
    await store.create({ exportId: uuidV7Ids.newId(), userId, total: 4, now: clock.now() });
    expect(await exports.latest(userId)).toMatchObject({ status: 'building', done: 0 });
    clock.advance(3 * 60_000);
    expect(await exports.latest(userId)).toMatchObject({ status: 'failed' });
    const again = await exports.start(userId);
    await exports.settled();
    expect(await exports.latest(userId)).toMatchObject({ id: again.id, status: 'ready', done: 4 });
  });
});
