import type { AuditPage, ErrorBody, User } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIRST_ADMIN = 'audit.first@example.com';
const SECOND_ADMIN = 'audit.second@example.com';

let api: TestApi;
const admins: { client: HttpClient; id: string; email: string }[] = [];
beforeAll(async () => {
  api = await startTestApi({ ADMIN_EMAILS: `${FIRST_ADMIN},${SECOND_ADMIN}` });
  for (const email of [FIRST_ADMIN, SECOND_ADMIN]) {
    const client = api.client();
    const registered = await client.post<User>('/api/auth/register', { email, password: 'correct horse' });
    expect(registered.status).toBe(201);
    admins.push({ client, id: registered.body.id, email });
  }
});
afterAll(() => api.close());

const adminNo = (index: number) => {
  const admin = admins[index];
  if (!admin) throw new Error('the admins are signed up in beforeAll');
  return admin;
};

async function history(query: string, as = adminNo(0).client): Promise<AuditPage> {
  const response = await as.get<AuditPage>(`/api/admin/audit${query}`);
  expect(response.status).toBe(200);
  return response.body;
}

const suspend = (as: HttpClient, userId: string, suspended: boolean) =>
  as.patch(`/api/admin/users/${userId}/suspend`, { suspended });

describe('GET /api/admin/audit', () => {
  it('lists a suspension with the acting admin, the time and the target as soon as the change answers', async () => {
    const { userId } = await signedUpClient(api, 'audit.suspended');
    const before = Date.now();
    expect((await suspend(adminNo(0).client, userId, true)).status).toBe(200);

    const { entries } = await history(`?target=user-${userId}`);
    expect(entries).toEqual([
      {
        id: expect.any(String),
        occurredAt: expect.any(String),
        action: 'UserSuspended',
        actor: { id: adminNo(0).id, email: FIRST_ADMIN, kind: 'admin', erased: false },
        target: { type: 'user', id: userId, streamId: `user-${userId}` },
        details: { reason: null },
      },
    ]);
    const at = Date.parse(entries[0]?.occurredAt ?? '');
    expect(at).toBeGreaterThanOrEqual(before - 1_000);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it("records nothing of a user's own doing: a link made, a profile edited", async () => {
    const { client, userId } = await signedUpClient(api, 'audit.ordinary');
    expect(
      (await client.post('/api/links', { originalUrl: 'https://example.com/a', title: 'A' })).status,
    ).toBe(201);
    expect((await client.patch('/api/user/profile', { firstName: 'Ada', lastName: 'Lovelace' })).status).toBe(
      200,
    );
    expect((await history(`?actor=${userId}`)).entries).toEqual([]);
    expect((await history(`?target=user-${userId}`)).entries).toEqual([]);
    const everything = await history('?pageSize=100');
    expect(everything.entries.map((entry) => entry.action)).not.toContain('LinkCreated');
    expect(everything.entries.map((entry) => entry.action)).not.toContain('UserProfileUpdated');
    expect(everything.entries.every((entry) => entry.actor.kind === 'admin')).toBe(true);
  });

  it('filters by acting admin and by target (a stream id or the id alone), and pages newest first', async () => {
    const [ada, bob] = [await signedUpClient(api, 'audit.ada'), await signedUpClient(api, 'audit.bob')];
    await suspend(adminNo(0).client, ada.userId, true);
    await suspend(adminNo(1).client, bob.userId, true);
    await suspend(adminNo(1).client, ada.userId, false);

    const bySecond = await history(`?actor=${adminNo(1).id}`);
    expect(bySecond.entries.map((entry) => [entry.action, entry.target.id])).toEqual([
      ['UserUnsuspended', ada.userId],
      ['UserSuspended', bob.userId],
    ]);
    expect(bySecond.entries.every((entry) => entry.actor.email === SECOND_ADMIN)).toBe(true);

    const onAda = await history(`?target=user-${ada.userId}`);
    expect(onAda.entries.map((entry) => [entry.action, entry.actor.email])).toEqual([
      ['UserUnsuspended', SECOND_ADMIN],
      ['UserSuspended', FIRST_ADMIN],
    ]);
    expect((await history(`?target=${ada.userId}`)).entries).toEqual(onAda.entries);
    expect(
      (await history(`?target=user-${ada.userId}&actor=${adminNo(0).id.toUpperCase()}`)).entries.map(
        (entry) => entry.action,
      ),
    ).toEqual(['UserSuspended']);

    const first = await history(`?target=${ada.userId}&pageSize=1`);
    expect(first).toMatchObject({ page: 1, pageSize: 1, hasMore: true });
    expect(first.entries.map((entry) => entry.action)).toEqual(['UserUnsuspended']);
    const second = await history(`?target=${ada.userId}&pageSize=1&page=2`);
    expect(second).toMatchObject({ page: 2, pageSize: 1, hasMore: false });
    expect(second.entries.map((entry) => entry.action)).toEqual(['UserSuspended']);
    expect((await history(`?target=${ada.userId}&page=9`)).entries).toEqual([]);
  });

  it('shows no personal data of the target: no ciphertext, no e-mail address', async () => {
    const target = api.client();
    const email = `audit.private.${Date.now()}@example.com`;
    const registered = await target.post<User>('/api/auth/register', {
      email,
      password: 'correct horse',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    await suspend(adminNo(0).client, registered.body.id, true);
    const response = await adminNo(0).client.get('/api/admin/audit?pageSize=100');
    expect(response.text).toContain(registered.body.id);
    for (const secret of ['enc:', email, 'Grace', 'Hopper']) expect(response.text).not.toContain(secret);
  });

  it('answers a malformed filter with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['?actor=not-a-user', 'actor'],
      ['?target=user%20x', 'target'],
      [`?target=${'x'.repeat(201)}`, 'target'],
      ['?page=0', 'page'],
      ['?page=two', 'page'],
      ['?pageSize=101', 'pageSize'],
      ['?actor=operator&actor=operator', 'actor'],
    ];
    for (const [query, field] of cases) {
      const response = await adminNo(0).client.get<ErrorBody>(`/api/admin/audit${query}`);
      expect({ query, status: response.status, field: response.body.field }).toEqual({
        query,
        status: 400,
        field,
      });
    }
    expect((await adminNo(0).client.get('/api/admin/audit?actor=operator')).status).toBe(200);
  });
});
