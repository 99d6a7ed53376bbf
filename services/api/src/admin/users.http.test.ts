import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AdminUser, AdminUsersPage, ErrorBody, User } from '@sniplink/contracts';
import { createLogger, loadConfig } from '@sniplink/platform';
import {
  type HttpClient,
  signedUpClient,
  startTestApi,
  type TestApi,
  testApiWithAdmin,
} from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../../standalone/src/runtime';
import { AdminFlags } from '../accounts/admin-flags';

const ROOT = 'users.root@example.com';
const PASSWORD = 'correct horse';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

// The address is listed in capitals and signs up in lower case: the admin list ignores case.
const t = testApiWithAdmin(ROOT, { env: { ADMIN_EMAILS: ROOT.toUpperCase() } });

let counter = 0;
/** A new password account with a name, signed in; its address starts with `label` and is unique to the run. */
async function member(label: string, names: { firstName?: string; lastName?: string } = {}) {
  const client = t.api.client();
  const email = `${label}.${Date.now()}.${++counter}@example.com`;
  const response = await client.post<User>('/api/auth/register', { email, password: PASSWORD, ...names });
  expect(response.status).toBe(201);
  return { client, email, id: response.body.id };
}

const list = (client: HttpClient, query: string) => client.get<AdminUsersPage>(`/api/admin/users?${query}`);
const setAdmin = (client: HttpClient, id: string, isAdmin: boolean) =>
  client.patch<AdminUser & ErrorBody>(`/api/admin/users/${id}/admin`, { isAdmin });
const suspend = (client: HttpClient, id: string, suspended: boolean) =>
  client.patch<AdminUser & ErrorBody>(`/api/admin/users/${id}/suspend`, { suspended });
const userEventsOf = (id: string) => t.api.runtime.eventStore.readStream(`user-${id}`);

const ADMIN_USER_FIELDS = [
  'createdAt',
  'email',
  'firstName',
  'id',
  'isAdmin',
  'lastName',
  'linksCreatedThisMonth',
  'liveLinks',
  'subscriptionPlan',
  'subscriptionStatus',
  'suspended',
];

describe('admins as events', () => {
  it('makes an ADMIN_EMAILS address an admin at sign-up (any case), recorded as the system’s doing', async () => {
    expect((await t.admin.get<User>('/api/auth/user')).body.isAdmin).toBe(true);
    const granted = (await userEventsOf(t.adminId)).find((event) => event.type === 'AdminGranted');
    expect(granted).toMatchObject({ data: { by: 'system' }, actorId: 'system' });
  });

  it('grants admin through the switch, recording the acting admin; the new admin passes the gate at once', async () => {
    const ada = await member('switch.on');
    expect((await ada.client.get('/api/admin/users')).status).toBe(403);
    const granted = await setAdmin(t.admin, ada.id, true);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ id: ada.id, email: ada.email, isAdmin: true });
    expect((await ada.client.get<User>('/api/auth/user')).body.isAdmin).toBe(true);
    expect((await ada.client.get('/api/admin/users')).status).toBe(200);
    const event = (await userEventsOf(ada.id)).find((recorded) => recorded.type === 'AdminGranted');
    expect(event).toMatchObject({ data: { by: t.adminId }, actorId: t.adminId });
    // Granting an admin again changes nothing and appends nothing.
    expect((await setAdmin(t.admin, ada.id, true)).status).toBe(200);
    expect((await userEventsOf(ada.id)).filter((recorded) => recorded.type === 'AdminGranted')).toHaveLength(
      1,
    );
  });

  it('takes the flag away: the revoked admin meets the 403 on the very next call', async () => {
    const bob = await member('switch.off');
    expect((await setAdmin(t.admin, bob.id, true)).status).toBe(200);
    expect((await bob.client.get('/api/admin/users')).status).toBe(200);
    const revoked = await setAdmin(t.admin, bob.id, false);
    expect(revoked.status).toBe(200);
    expect(revoked.body.isAdmin).toBe(false);
    const refused = await bob.client.get<ErrorBody>('/api/admin/users');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'ADMIN_REQUIRED', message: 'Admin access required.' });
    expect((await bob.client.get<User>('/api/auth/user')).body.isAdmin).toBe(false);
  });

  it('answers 404 for an unknown or malformed id, and 400 naming the field for a bad body', async () => {
    expect((await setAdmin(t.admin, UNKNOWN_ID, true)).status).toBe(404);
    expect((await setAdmin(t.admin, 'not-a-uuid', true)).status).toBe(404);
    expect((await suspend(t.admin, UNKNOWN_ID, true)).status).toBe(404);
    expect((await suspend(t.admin, 'x', true)).status).toBe(404);
    const bad = await t.admin.patch<ErrorBody>(`/api/admin/users/${t.adminId}/admin`, { isAdmin: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('isAdmin');
  });

  it('keeps the admins of ADMIN_EMAILS who signed up before admins were events, once: a revoked one stays revoked', async () => {
    // An account whose stream has no admin event, as every account made before admins were events has.
    const legacy = await member('legacy');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-admins-'));
    const restart = async () => {
      const config = loadConfig({
        DATABASE_URL: t.api.database.connectionString,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
        ADMIN_EMAILS: legacy.email,
      });
      // A second process on the same database, started with the address in ADMIN_EMAILS (its runners stand by).
      const runtime = await startRuntime(config, createLogger('silent'), { projections: false });
      await runtime.stop();
    };
    try {
      await restart();
      expect((await legacy.client.get<User>('/api/auth/user')).body.isAdmin).toBe(true);
      expect((await setAdmin(t.admin, legacy.id, false)).status).toBe(200);
      await restart();
      expect((await legacy.client.get<User>('/api/auth/user')).body.isAdmin).toBe(false);
      const flags = (await userEventsOf(legacy.id)).filter((event) => event.type.startsWith('Admin'));
      expect(flags.map((event) => [event.type, event.actorId])).toEqual([
        ['AdminGranted', 'system'],
        ['AdminRevoked', t.adminId],
      ]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the last admin', () => {
  const SOLO = 'solo.admin@example.com';
  let lone: TestApi;
  let solo: HttpClient;
  let soloId: string;
  beforeAll(async () => {
    lone = await startTestApi({ ADMIN_EMAILS: SOLO });
    solo = lone.client();
    const registered = await solo.post<User>('/api/auth/register', { email: SOLO, password: PASSWORD });
    soloId = registered.body.id;
  });
  afterAll(() => lone.close());

  const adminsNow = async (client: HttpClient) => {
    const page = await client.get<AdminUsersPage>('/api/admin/users');
    return page.body.users.filter((user) => user.isAdmin).map((user) => user.id);
  };

  it('cannot remove their own flag: 409 with a clear message, and stays an admin', async () => {
    const refused = await setAdmin(solo, soloId, false);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'CONFLICT',
      message: 'You are the last admin: make another user an admin before removing your own admin access.',
    });
    expect((await solo.get<User>('/api/auth/user')).body.isAdmin).toBe(true);
  });

  it('two admins revoking each other at the same instant leave one admin', async () => {
    const other = await signedUpClient(lone, 'mutual');
    expect((await setAdmin(solo, other.userId, true)).status).toBe(200);
    const answers = await Promise.all([
      setAdmin(solo, other.userId, false),
      setAdmin(other.client, soloId, false),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const winner = answers[0].status === 200 ? solo : other.client;
    expect(await adminsNow(winner)).toHaveLength(1);
    // Put things back as they were: solo alone.
    if (winner === other.client) {
      expect((await setAdmin(other.client, soloId, true)).status).toBe(200);
      expect((await setAdmin(other.client, other.userId, false)).status).toBe(200);
    }
  });

  it('two admins removing their own flags at the same instant: one is refused, one admin remains', async () => {
    const other = await signedUpClient(lone, 'both.self');
    expect((await setAdmin(solo, other.userId, true)).status).toBe(200);
    const answers = await Promise.all([
      setAdmin(solo, soloId, false),
      setAdmin(other.client, other.userId, false),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const remaining = answers[0].status === 200 ? other.client : solo;
    expect(await adminsNow(remaining)).toHaveLength(1);
    if (remaining === other.client) {
      expect((await setAdmin(other.client, soloId, true)).status).toBe(200);
      expect((await setAdmin(other.client, other.userId, false)).status).toBe(200);
    }
  });

  it('holds across processes: two services without a shared lock, each revoking its own admin at once', async () => {
    const other = await signedUpClient(lone, 'processes');
    expect((await setAdmin(solo, other.userId, true)).status).toBe(200);
    // Two processes' worth of admin changes: each its own in-process lock, one event store between them.
    const { accounts, eventStore, clock } = lone.runtime;
    const process = () =>
      new AdminFlags({
        eventStore,
        clock,
        userCommand: (userId, command, actorId) => accounts.command(userId, command, actorId),
      });
    const outcomes = await Promise.allSettled([
      process().set(soloId, false, soloId),
      process().set(other.userId, false, other.userId),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toMatchObject({ status: 409 });
    const remaining = outcomes[0].status === 'fulfilled' ? other.client : solo;
    expect(await adminsNow(remaining)).toHaveLength(1);
  });
});

describe('suspension', () => {
  it('ends an open session at once, blocks sign-in, and answers with the admin user; unsuspending lets them in', async () => {
    const eve = await member('suspended');
    expect((await eve.client.get('/api/auth/user')).status).toBe(200);
    const suspended = await suspend(t.admin, eve.id, true);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ id: eve.id, suspended: true, subscriptionStatus: 'suspended' });
    expect((await eve.client.get('/api/auth/user')).status).toBe(401);
    expect((await eve.client.get('/api/links')).status).toBe(401);
    const signIn = () =>
      t.api.client().post<ErrorBody>('/api/auth/login', { email: eve.email, password: PASSWORD });
    const refused = await signIn();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_SUSPENDED');

    const back = await suspend(t.admin, eve.id, false);
    expect(back.body).toMatchObject({ suspended: false, subscriptionStatus: 'inactive' });
    expect((await signIn()).status).toBe(200);
  });
});

describe('the list of users', () => {
  it('finds users by a part of the e-mail or of the full name, ignoring case', async () => {
    const tag = `hop${Date.now()}`;
    const grace = await member(`grace.${tag}`, { firstName: 'Grace', lastName: `Hopper${tag}` });
    await member(`alan.${tag}`, { firstName: 'Alan', lastName: 'Turing' });
    const byName = await list(t.admin, `search=${encodeURIComponent(`GRACE HOPPER${tag.toUpperCase()}`)}`);
    expect(byName.body.users.map((user) => user.id)).toEqual([grace.id]);
    const byLastName = await list(t.admin, `search=${encodeURIComponent(`hopper${tag}`)}`);
    expect(byLastName.body.users.map((user) => user.id)).toEqual([grace.id]);
    const byEmail = await list(t.admin, `search=${encodeURIComponent(`GRACE.${tag.toUpperCase()}`)}`);
    expect(byEmail.body).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(byEmail.body.users[0]).toMatchObject({ email: grace.email, firstName: 'Grace' });
    expect((await list(t.admin, `search=${tag}`)).body.total).toBe(2);
    // LIKE's wildcards in a search match only themselves.
    expect((await list(t.admin, `search=${encodeURIComponent('%')}`)).body.total).toBe(0);
    expect((await list(t.admin, `search=${encodeURIComponent(`grace_${tag}`)}`)).body.total).toBe(0);
  });

  it('pages 20 at a time, newest first; each user appears once', async () => {
    const tag = `page${Date.now()}`;
    const made: string[] = [];
    for (let i = 0; i < 23; i++) made.push((await member(`${tag}.${i}`)).id);
    const first = await list(t.admin, `search=${tag}&page=1`);
    const second = await list(t.admin, `search=${tag}&page=2`);
    expect(first.body).toMatchObject({ page: 1, pageSize: 20, total: 23, totalCapped: false });
    expect(first.body.users).toHaveLength(20);
    expect(second.body).toMatchObject({ page: 2, total: 23 });
    expect(second.body.users).toHaveLength(3);
    expect([...first.body.users, ...second.body.users].map((user) => user.id)).toEqual(made.reverse());
    expect((await list(t.admin, `search=${tag}&page=3`)).body.users).toEqual([]);
  });

  it('refuses a page that is not a whole number from 1 with a 400 naming it', async () => {
    for (const page of ['0', '-1', 'x', '1.5', '501']) {
      const refused = await t.admin.get<ErrorBody>(`/api/admin/users?page=${page}`);
      expect(refused.status).toBe(400);
      expect(refused.body.field).toBe('page');
    }
  });

  it('shows the plan, the links and the admin flag, and never a secret', async () => {
    const pro = await member('listed.pro');
    await t.api.runtime.accounts.setPlan(pro.id, 'yearly');
    const created = await pro.client.post('/api/links', {
      originalUrl: 'https://example.org/a',
      title: null,
    });
    expect(created.status).toBe(201);
    const page = await list(t.admin, `search=${encodeURIComponent(pro.email)}`);
    expect(page.body.users).toHaveLength(1);
    const [user] = page.body.users;
    expect(Object.keys(user ?? {}).sort()).toEqual(ADMIN_USER_FIELDS);
    expect(user).toMatchObject({
      isAdmin: false,
      suspended: false,
      subscriptionStatus: 'active',
      subscriptionPlan: 'yearly',
      linksCreatedThisMonth: 1,
      liveLinks: 1,
    });
    const everything = await list(t.admin, 'page=1');
    expect(everything.text).not.toMatch(/password|argon2/i);
    expect(Object.keys(everything.body).sort()).toEqual([
      'page',
      'pageSize',
      'total',
      'totalCapped',
      'users',
    ]);
  });

  it('does not list erased accounts', async () => {
    const gone = await member('erased.listed');
    expect((await list(t.admin, `search=${encodeURIComponent(gone.email)}`)).body.total).toBe(1);
    await t.api.runtime.accounts.erase(gone.id);
    expect((await list(t.admin, `search=${encodeURIComponent(gone.email)}`)).body.total).toBe(0);
    expect(
      (await list(t.admin, `search=${gone.id.slice(0, 8)}`)).body.users.map((user) => user.id),
    ).not.toContain(gone.id);
  });
});

describe('the CSV export', () => {
  it('downloads every user the search matches, with formula cells made safe and RFC 4180 quoting', async () => {
    const tag = `csv${Date.now()}`;
    const risky = await member(`${tag}.risky`, {
      firstName: '=HYPERLINK("http://x")',
      lastName: '+1, "two"',
    });
    const dash = await member(`${tag}.dash`, { firstName: '-2', lastName: '@cmd' });
    const response = await t.admin.get(`/api/admin/users/export?search=${tag}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sniplink-users-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = response.text.split('\r\n');
    expect(lines[0]).toBe(
      'ID,Email,First Name,Last Name,Admin,Status,Plan,Links Created This Month,Live Links,Joined',
    );
    expect(lines).toHaveLength(4); // header, two users, the final line break
    expect(lines[1]).toMatch(new RegExp(`^${dash.id},${dash.email},'-2,'@cmd,no,inactive,free,0,0,\\d{4}-`));
    expect(lines[2]).toMatch(
      new RegExp(
        `^${risky.id},${risky.email},"'=HYPERLINK\\(""http://x""\\)","'\\+1, ""two""",no,inactive,free,0,0,`,
      ),
    );
    expect(response.text).not.toMatch(/password|argon2/i);
  });

  it('streams in batches: every match once, newest first, across many batches', async () => {
    const { usersMatching } = await import('@sniplink/projections');
    const tag = `batch${Date.now()}`;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await member(`${tag}.${i}`)).id);
    const seen: string[] = [];
    let batches = 0;
    for await (const batch of usersMatching(t.api.database.db, tag, 2)) {
      batches += 1;
      seen.push(...batch.map((user) => user.row.user_id));
    }
    expect(batches).toBe(4);
    expect(seen).toEqual(made.reverse());
  });

  it('exports everyone without a search, the header first', async () => {
    const response = await t.admin.get('/api/admin/users/export');
    const total = (await list(t.admin, 'page=1')).body.total;
    expect(response.text.trimEnd().split('\r\n')).toHaveLength(total + 1);
  });
});
