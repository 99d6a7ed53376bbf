import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ErrorBody, Link, User } from '@sniplink/contracts';
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
 * The admin's settings take effect without a restart in every process: an API process that runs no
 * projections (the distributed deployment's `api` replicas) on the same database as the app that runs them hears the
 * config read model advance and reads it again.
 */
let api: TestApi;
let other: AppProcess;
let dataDir: string;
let admin: HttpClient;
beforeAll(async () => {
  api = await startTestApi({ ADMIN_EMAILS: 'settings.admin@example.com' });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-settings-'));
  other = await startAppProcess({
    DATABASE_URL: api.database.connectionString,
    PROJECTIONS: 'off',
    DATA_DIR: dataDir,
    ADMIN_EMAILS: 'settings.admin@example.com',
    LOG_LEVEL: 'warn',
  });
  ({ client: admin } = await signedUpAdmin(api, 'settings.admin@example.com'));
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

const limitSeenBy = async (client: HttpClient) =>
  (await client.get<User>('/api/auth/user')).body.linkAllowance.limit;
const create = (client: HttpClient, n: number) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: `https://example.com/${n}`, title: null });

describe('config values applied without restart, in a second app process on the same database', () => {
  it('a Free allowance of 2 set in one process: the other says 2 and refuses the third create; deleting it there gives 5 back here', async () => {
    const { client: here } = await signedUpClient(api, 'settings.user');
    const there = atOtherProcess(here);
    expect(await limitSeenBy(there)).toBe(5);

    expect((await admin.post('/api/admin/config', { key: 'links.free_limit', value: '2' })).status).toBe(201);
    const changedAt = Date.now();
    expect(await limitSeenBy(here)).toBe(2);
    // The other process reads the read model again once it hears that it advanced (NOTIFY).
    expect(
      await until(
        () => limitSeenBy(there),
        (limit) => limit === 2,
      ),
    ).toBe(2);
    console.info(`[settings] the other process applied the change within ${Date.now() - changedAt} ms`);
    expect((await create(there, 1)).status).toBe(201);
    expect((await create(there, 2)).status).toBe(201);
    expect(await create(there, 3)).toMatchObject({ status: 403, body: { code: 'SUBSCRIPTION_REQUIRED' } });
    expect((await there.get<User>('/api/auth/user')).body.linkAllowance).toEqual({
      period: 'lifetime',
      used: 2,
      limit: 2,
      remaining: 0,
    });

    // An admin's change in the process without projections: it waits for the app's runner, then applies.
    const adminThere = atOtherProcess(admin);
    expect((await adminThere.request('DELETE', '/api/admin/config/links.free_limit')).status).toBe(200);
    expect(await limitSeenBy(there)).toBe(5);
    expect(
      await until(
        () => limitSeenBy(here),
        (limit) => limit === 5,
      ),
    ).toBe(5);
    expect((await create(here, 3)).status).toBe(201);
  });
});
