import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ErrorBody, Link } from '@sniplink/contracts';
import type { SlugApproval } from '@sniplink/contracts/moderation/api';
import {
  HttpClient,
  signedUpAdmin,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The admin's lists and decisions reach every process without a restart: a second app process that runs
 * no projections, on the same database, refuses a code with a word listed in the first, and redirects a
 * code the first approved, through the links' code-change notifications.
 */
const ADMIN = 'moderation.processes@example.com';
let api: TestApi;
let other: AppProcess;
let dataDir: string;
let admin: HttpClient;
beforeAll(async () => {
  api = await startTestApi({ ADMIN_EMAILS: ADMIN });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-moderation-'));
  other = await startAppProcess({
    DATABASE_URL: api.database.connectionString,
    PROJECTIONS: 'off',
    DATA_DIR: dataDir,
    ADMIN_EMAILS: ADMIN,
    LOG_LEVEL: 'warn',
  });
  ({ client: admin } = await signedUpAdmin(api, ADMIN));
}, 120_000);
afterAll(async () => {
  await other?.stop('SIGTERM');
  await api?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The same browser (its session cookie) talking to the other process. */
function atOtherProcess(client: HttpClient): HttpClient {
  const there = new HttpClient(other.baseUrl);
  for (const [name, value] of client.cookies) there.cookies.set(name, value);
  return there;
}

const create = (client: HttpClient, shortCode: string) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: 'https://example.com/elsewhere', shortCode });
const visitOther = (code: string) => new HttpClient(other.baseUrl).get(`/s/${code}`);

describe('moderation in a second app process on the same database', () => {
  it('refuses a code with a word listed in the other process, once it heard of it', async () => {
    const { client } = await signedUpClient(api, 'moderation.processes.user');
    const there = atOtherProcess(client);
    expect((await create(there, 'swindle-1')).status).toBe(201);
    expect((await admin.post('/api/admin/prohibited-words', { word: 'swindle' })).status).toBe(201);
    const listedAt = Date.now();
    const refused = await until(
      () => create(there, `swindle-${Date.now() % 1000}x`),
      (response) => response.status === 400,
      5_000,
    );
    console.info(
      `[moderation] the other process refused the word ${Date.now() - listedAt} ms after it was listed`,
    );
    expect(refused.body.code).toBe('PROHIBITED_CODE');
  });

  it('redirects a code approved in the other process, within a second or two', async () => {
    expect((await admin.post('/api/admin/protected-brands', { brand: 'Fabrikam' })).status).toBe(201);
    const { client } = await signedUpClient(api, 'moderation.processes.brand');
    const there = atOtherProcess(client);
    const link = await until(
      () => create(there, 'fabrikam-fans'),
      (response) => response.status === 201,
      5_000,
    );
    expect(link.body.pendingApproval).toBe(true);
    // The other process caches the code as pending.
    expect((await visitOther('fabrikam-fans')).status).toBe(423);
    expect((await visitOther('fabrikam-fans')).status).toBe(423);

    const approvals = await until(
      async () => (await admin.get<SlugApproval[]>('/api/admin/slug-approvals')).body,
      (found) => found.some((approval) => approval.slug === 'fabrikam-fans'),
      5_000,
    );
    const approval = approvals.find((one) => one.slug === 'fabrikam-fans');
    const approvedAt = Date.now();
    expect((await admin.patch(`/api/admin/slug-approvals/${approval?.id}/approve`, {})).status).toBe(200);
    const redirect = await until(
      () => visitOther('fabrikam-fans'),
      (response) => response.status === 302,
      5_000,
      20,
    );
    const tookMs = Date.now() - approvedAt;
    console.info(
      `[moderation] the other process redirected the approved code ${tookMs} ms after the approval was asked`,
    );
    expect(redirect.headers.get('location')).toBe('https://example.com/elsewhere');
    expect(tookMs).toBeLessThan(2_000);
  });
});
