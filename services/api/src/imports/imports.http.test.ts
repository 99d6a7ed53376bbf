import { readFile } from 'node:fs/promises';
import type { ImportJob, Link } from '@sniplink/contracts';
import { linkStream } from '@sniplink/contracts';
import {
  type HttpClient,
  type SignedUp,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIdOfRow } from './import-job';

const fixture = (name: string) => readFile(new URL(`./formats/fixtures/${name}`, import.meta.url));

let api: TestApi;
let pro: SignedUp;
beforeAll(async () => {
  api = await startTestApi();
  pro = await signedUpClient(api, 'imports.pro');
  await api.runtime.accounts.setPlan(pro.userId, 'monthly');
  // Another account holds the codes the fixtures' "taken" rows ask for.
  const other = await signedUpClient(api, 'imports.other');
  await api.runtime.accounts.setPlan(other.userId, 'monthly');
  for (const shortCode of ['taken1', 'taken2']) {
    const made = await other.client.post('/api/links', {
      originalUrl: 'https://other.example.com/',
      shortCode,
    });
    expect(made.status, made.text).toBe(201);
  }
}, 60_000);
afterAll(() => api?.close());

async function upload(client: HttpClient, format: string, file: Buffer | string) {
  return client.request<ImportJob>(
    'POST',
    `/api/imports?format=${format}&fileName=links.csv`,
    file.toString(),
    {
      'content-type': 'text/csv',
    },
  );
}

async function importToTheEnd(client: HttpClient, id: string, body: object): Promise<ImportJob> {
  const started = await client.post<ImportJob>(`/api/imports/${id}/start`, body);
  expect(started.status, started.text).toBe(200);
  const job = await until(
    async () => (await client.get<ImportJob>(`/api/imports/${id}`)).body,
    (job) => job.status !== 'running',
    30_000,
    100,
  );
  expect(job.status).toBe('done');
  return job;
}

const redirectOf = async (code: string) => {
  const response = await fetch(`${api.baseUrl}/s/${code}`, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location') };
};

describe('an import of a Bitly CSV export', () => {
  it('previews the links, the taken codes and the invalid rows, then imports them under their codes', async () => {
    const uploaded = await upload(pro.client, 'bitly', await fixture('bitly.csv'));
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body).toMatchObject({ status: 'ready', format: 'bitly', fileName: 'links.csv' });
    expect(uploaded.body.preview).toEqual({
      rows: 5,
      links: 4,
      codesTaken: 1,
      invalid: 1,
      problems: [{ row: 4, reason: 'This is not a valid URL' }],
      allowanceRemaining: 500,
      allowancePeriod: 'month',
    });

    const job = await importToTheEnd(pro.client, uploaded.body.id, { conflicts: 'skip' });
    expect(job.progress).toEqual({
      total: 4,
      processed: 4,
      imported: 3,
      renamed: 0,
      skipped: 1,
      failed: 0,
      importedClicks: 1204 + 37,
    });
    expect(job.problems).toEqual([{ row: 3, reason: 'This short code is already taken' }]);

    // The job ends as its last links are stored; the redirect knows them once the read model has them.
    expect(
      await until(
        () => redirectOf('3sPrng'),
        (answer) => answer.status === 302,
      ),
    ).toEqual({
      status: 302,
      location: 'https://shop.example.com/spring?utm_source=bitly',
    });
    const links = (await pro.client.get<Link[]>('/api/links')).body;
    expect(links.find((link) => link.shortCode === 'cafe-menu')).toMatchObject({
      title: 'Café menu — 日本語',
      originalUrl: 'https://cafe.example.org/menu',
    });
    expect(links.find((link) => link.shortCode === '3sPrng')?.tags).toEqual(['sales', 'spring']);
    // The audit history groups the import: every event of its links carries the import's id.
    const events = await api.runtime.eventStore.readStream(linkStream.id(linkIdOfRow(uploaded.body.id, 1)));
    expect(events[0]).toMatchObject({
      type: 'LinkCreated',
      actorId: pro.userId,
      correlationId: uploaded.body.id,
    });
  });
});

describe('an import of a YOURLS CSV export', () => {
  it('gives a link whose code is taken a new code when the user chooses so', async () => {
    const uploaded = await upload(pro.client, 'yourls-csv', await fixture('yourls.csv'));
    expect(uploaded.body.preview).toMatchObject({ rows: 5, links: 4, codesTaken: 1, invalid: 1 });
    expect(uploaded.body.preview.problems).toEqual([
      { row: 4, reason: 'Only http and https URLs can be shortened' },
    ]);

    const job = await importToTheEnd(pro.client, uploaded.body.id, { conflicts: 'new-code' });
    expect(job.progress).toMatchObject({
      total: 4,
      imported: 3,
      renamed: 1,
      skipped: 0,
      failed: 0,
      importedClicks: 91,
    });
    expect(
      await until(
        () => redirectOf('zurich'),
        (answer) => answer.status === 302,
      ),
    ).toEqual({
      status: 302,
      location: 'https://de.example.ch/z%C3%BCrich',
    });
    const links = (await pro.client.get<Link[]>('/api/links')).body;
    const renamed = links.find((link) => link.originalUrl === 'https://example.com/other');
    expect(renamed?.shortCode).toMatch(/^[A-Za-z0-9]+$/);
    expect(renamed?.shortCode).not.toBe('taken2');
    expect(await redirectOf('taken2')).toEqual({ status: 302, location: 'https://other.example.com/' });
  });
});

/** Four links without codes of their own: they get generated ones, so no other test's codes are in the way. */
const FOUR_LINKS =
  'Long URL,Title\nhttps://one.example.com/,One\nhttps://two.example.com/,Two\nhttps://three.example.com/,Three\nhttps://four.example.com/,Four\n';

describe('the plan’s allowance', () => {
  it('is said in the preview, and an import of the first N links stops there', async () => {
    const free = await signedUpClient(api, 'imports.free');
    for (const originalUrl of [
      'https://a.example.com/',
      'https://b.example.com/',
      'https://c.example.com/',
    ]) {
      expect((await free.client.post('/api/links', { originalUrl })).status).toBe(201);
    }
    const uploaded = await upload(free.client, 'bitly', FOUR_LINKS);
    expect(uploaded.body.preview).toMatchObject({
      links: 4,
      allowanceRemaining: 2,
      allowancePeriod: 'lifetime',
    });

    const job = await importToTheEnd(free.client, uploaded.body.id, { conflicts: 'skip', limit: 2 });
    expect(job.progress).toMatchObject({ total: 2, processed: 2, imported: 2 });
    expect((await free.client.get<Link[]>('/api/links')).body).toHaveLength(5);
  });

  it('stops an import that meets the end of the allowance, and says so', async () => {
    const free = await signedUpClient(api, 'imports.free2');
    for (const originalUrl of [
      'https://a.example.com/',
      'https://b.example.com/',
      'https://c.example.com/',
      'https://d.example.com/',
    ]) {
      expect((await free.client.post('/api/links', { originalUrl })).status).toBe(201);
    }
    const uploaded = await upload(free.client, 'bitly', FOUR_LINKS);
    const job = await importToTheEnd(free.client, uploaded.body.id, { conflicts: 'skip' });
    expect(job.progress).toMatchObject({ imported: 1, failed: 3 });
    expect(job.problems.map((problem) => problem.reason)).toEqual(
      Array(3).fill('Not imported: the plan’s allowance is used up'),
    );
    expect((await free.client.get<Link[]>('/api/links')).body).toHaveLength(5);
  });
});

describe('bad uploads', () => {
  it('names the problem: an unknown format, a file of another kind, one too large, an import not yours', async () => {
    const unknown = await upload(pro.client, 'myspace', 'a,b\n');
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('format must be one of bitly, yourls-csv');

    const notBitly = await upload(pro.client, 'bitly', 'name,age\nAda,36\n');
    expect(notBitly.status).toBe(400);
    expect(notBitly.body).toMatchObject({
      message: expect.stringContaining('This is not a Bitly CSV export'),
    });

    const huge = await pro.client.request('POST', '/api/imports?format=bitly', 'x'.repeat(51 * 1024 * 1024), {
      'content-type': 'application/octet-stream',
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The file is larger than 50 MB' });

    const mine = await upload(pro.client, 'bitly', await fixture('bitly.csv'));
    const stranger = await signedUpClient(api, 'imports.stranger');
    expect((await stranger.client.get(`/api/imports/${mine.body.id}`)).status).toBe(404);
    expect(
      (await stranger.client.post(`/api/imports/${mine.body.id}/start`, { conflicts: 'skip' })).status,
    ).toBe(404);
    expect((await pro.client.post(`/api/imports/${mine.body.id}/start`, { conflicts: 'maybe' })).status).toBe(
      400,
    );
  });
});
