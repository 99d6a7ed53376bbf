import path from 'node:path';
import { type Link, linkStream } from '@sniplink/contracts';
import { type SignedUp, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { runCliProcess } from '@sniplink/test-support/cli-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIXTURES = path.resolve(import.meta.dirname, '../../../api/src/imports/formats/fixtures');

let api: TestApi;
let owner: SignedUp;
beforeAll(async () => {
  api = await startTestApi();
  owner = await signedUpClient(api, 'import.cli');
}, 60_000);
afterAll(() => api?.close());

const cli = (...args: string[]) =>
  runCliProcess(path.resolve(import.meta.dirname, 'import.ts'), args, {
    DATABASE_URL: api.database.connectionString,
  });

describe('npm run import', () => {
  it('imports a YOURLS export into a Free account past its allowance, as the operator, with a report', async () => {
    for (const originalUrl of [
      'https://a.example.com/',
      'https://b.example.com/',
      'https://c.example.com/',
    ]) {
      expect((await owner.client.post('/api/links', { originalUrl })).status).toBe(201);
    }
    const email = (await owner.client.get<{ email: string }>('/api/auth/user')).body.email;
    const run = await cli('--format', 'yourls', '--owner', email, path.join(FIXTURES, 'yourls.csv'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('5 rows: 4 links, 0 codes taken here, 1 invalid');
    expect(run.stderr).toContain('row 4: Only http and https URLs can be shortened');
    expect(run.stdout).toMatch(
      /^Imported 4 links \(0 under a new code\), skipped 0, failed 0, 1 invalid; import (\S+)\n$/,
    );
    const importId = run.stdout.trim().split(' ').at(-1) as string;

    // Seven links on a Free account (five at most) and none refused: the operator's import is outside the plan.
    const links = (await owner.client.get<Link[]>('/api/links')).body;
    expect(links).toHaveLength(7);
    expect(links.map((link) => link.shortCode)).toEqual(
      expect.arrayContaining(['nodate', 'ozhome', 'taken2', 'zurich']),
    );
    const [created] = await api.runtime.eventStore.readStream(
      linkStream.id(links.find((link) => link.shortCode === 'zurich')?.id ?? ''),
    );
    expect(created).toMatchObject({ actorId: 'operator', correlationId: importId });
  });

  it('says how to call it when the arguments are wrong', async () => {
    const run = await cli('--format', 'bitly', 'links.csv');
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('usage: npm run import -- --format');
  });
});
