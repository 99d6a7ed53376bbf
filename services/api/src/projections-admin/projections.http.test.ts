import type { AuditPage, ErrorBody, ProjectionHealthEntry } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { beforeAll, describe, expect, it } from 'vitest';

const ADMIN_EMAIL = 'projections.admin@example.com';
const t = testApiWithAdmin(ADMIN_EMAIL);
let member: HttpClient;
beforeAll(async () => {
  ({ client: member } = await signedUpClient(t.api, 'projections.member'));
});

type Health = { projections: ProjectionHealthEntry[] };
const links = async () => {
  const response = await t.admin.get<Health>('/api/admin/projections');
  expect(response.status).toBe(200);
  return response.body.projections.find((entry) => entry.name === 'links');
};

describe('GET /api/admin/projections', () => {
  it('lists every projection with its position, the head, its lag, state and the process that runs it', async () => {
    const response = await t.admin.get<Health>('/api/admin/projections');
    expect(response.status).toBe(200);
    const names = response.body.projections.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['links', 'users', 'admin-audit', 'stream-catalogue']));
    const entry = await until(links, (read) => read?.lagEvents === 0 && read.holder !== null, 10_000);
    expect(entry).toMatchObject({
      version: 1,
      storedVersion: 1,
      state: 'running',
      lagSeconds: 0,
      lastError: null,
    });
    expect(entry?.holder).toMatch(/ pid \d+$/);
    expect(entry?.position).toMatch(/^\d+\/\d+$/);
  });

  it('refuses a member and a signed-out caller', async () => {
    expect((await member.get('/api/admin/projections')).status).toBe(403);
    expect((await t.api.client().get('/api/admin/projections')).status).toBe(401);
    expect((await member.post('/api/admin/projections/links/rebuild')).status).toBe(403);
    expect((await t.api.client().post('/api/admin/projections/links/rebuild')).status).toBe(401);
  });
});

describe('POST /api/admin/projections/{name}/rebuild', () => {
  it('rebuilds the links read model in the background while it keeps answering, and is audited', async () => {
    const { client: owner } = await signedUpClient(t.api, 'projections.owner');
    for (let i = 0; i < 5; i++) {
      expect((await owner.post('/api/links', { originalUrl: `https://example.com/page-${i}` })).status).toBe(
        201,
      );
    }
    const started = await t.admin.post('/api/admin/projections/links/rebuild');
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ name: 'links', started: true });
    // The dashboard answers all along, with every link.
    const during = await owner.get<unknown[]>('/api/links');
    expect(during.status).toBe(200);
    const done = await until(links, (read) => read?.rebuild?.state === 'done', 30_000);
    expect(done?.rebuild).toMatchObject({ state: 'done', error: null, requestedBy: t.adminId });
    expect(done?.rebuild?.swapMs).toBeLessThan(1_000);
    expect(done?.state).toBe('running');
    const after = await owner.get<unknown[]>('/api/links');
    expect(after.body).toHaveLength(5);
    const history = await t.admin.get<AuditPage>('/api/admin/audit?target=projection-links');
    expect(history.body.entries[0]).toMatchObject({
      action: 'ProjectionRebuildRequested',
      actor: { id: t.adminId, email: ADMIN_EMAIL, kind: 'admin' },
      target: { type: 'projection', id: 'links' },
    });
  });

  it('answers 404 naming the projections for a name none has', async () => {
    const response = await t.admin.post<ErrorBody>('/api/admin/projections/nothing/rebuild');
    expect(response.status).toBe(404);
    expect(response.body.message).toMatch(/^No projection is named "nothing"; the projections are .*links/);
  });
});
