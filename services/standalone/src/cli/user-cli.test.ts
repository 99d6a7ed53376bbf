import path from 'node:path';
import type { ErrorBody, User } from '@sniplink/contracts';
import { adminAuditProjection, auditHistory } from '@sniplink/projections';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { runCliProcess } from '@sniplink/test-support/cli-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The operator runs the commands next to the running app: a real child process on the app's database,
// while this process serves HTTP and runs the projections (the CLI's own runners stand by).
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

type UserCommand = 'plan' | 'suspend' | 'unsuspend' | 'admin';
const userCli = (command: UserCommand, ...args: string[]) =>
  runCliProcess(path.resolve(import.meta.dirname, `user-${command}.ts`), args, {
    DATABASE_URL: api.database.connectionString,
  });

let counter = 0;
const PASSWORD = 'correct horse';

async function signUp(name: string) {
  const email = `${name}.${Date.now()}.${++counter}@example.com`;
  const client = api.client();
  const response = await client.post<User>('/api/auth/register', { email, password: PASSWORD });
  expect(response.status).toBe(201);
  return { client, email };
}

/** The read model as the app answers from it, right after the CLI has exited (no polling). */
async function currentUser(client: ReturnType<TestApi['client']>) {
  const response = await client.get<User>('/api/auth/user');
  expect(response.status).toBe(200);
  return response.body;
}

const signIn = (email: string) =>
  api.client().post<ErrorBody>('/api/auth/login', { email, password: PASSWORD });

describe('npm run user:plan', () => {
  it('makes the account Pro on the monthly plan', async () => {
    const { client, email } = await signUp('monthly');
    const result = await userCli('plan', email, 'monthly');
    expect(result).toEqual({ status: 0, stdout: `${email} is now on the monthly plan\n`, stderr: '' });
    expect(await currentUser(client)).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionPlan: 'monthly',
    });
  });

  it("makes the account Pro on the yearly plan, recorded as the operator's doing", async () => {
    const { client, email } = await signUp('yearly');
    expect((await userCli('plan', email, 'yearly')).status).toBe(0);
    const user = await currentUser(client);
    expect(user).toMatchObject({ subscriptionStatus: 'active', subscriptionPlan: 'yearly' });
    const events = await api.runtime.eventStore.readStream(`user-${user.id}`);
    expect(events.find((event) => event.type === 'SubscriptionStarted')?.actorId).toBe('operator');
    expect(events.find((event) => event.type === 'UserRegistered')?.actorId).toBe(user.id);
  });

  it('makes a Pro account Free again', async () => {
    const { client, email } = await signUp('free');
    expect((await userCli('plan', email, 'monthly')).status).toBe(0);
    const result = await userCli('plan', email, 'free');
    expect(result.stdout).toBe(`${email} is now on the free plan\n`);
    expect(result.status).toBe(0);
    expect(await currentUser(client)).toMatchObject({
      subscriptionStatus: 'inactive',
      subscriptionPlan: null,
    });
  });

  it('answers exit 2 for an address no account holds', async () => {
    const result = await userCli('plan', 'nobody.here@example.com', 'monthly');
    expect(result).toEqual({ status: 2, stdout: '', stderr: 'No account with that e-mail address\n' });
  });

  it('answers exit 64 with the usage for a plan it does not know, or missing arguments', async () => {
    const { email } = await signUp('badplan');
    const wrong = [[email, 'weekly'], [email], ['monthly', email], []];
    for (const result of await Promise.all(wrong.map((args) => userCli('plan', ...args)))) {
      expect(result.status).toBe(64);
      expect(result.stderr).toBe('usage: npm run user:plan -- <email> monthly|yearly|free\n');
    }
  });
});

describe('npm run user:suspend and user:unsuspend', () => {
  it('ends the sessions and refuses sign-in while suspended; unsuspending keeps the plan', async () => {
    const { client, email } = await signUp('suspended');
    expect((await userCli('plan', email, 'yearly')).status).toBe(0);

    const suspended = await userCli('suspend', email, 'chargeback', 'fraud');
    expect(suspended).toEqual({ status: 0, stdout: `${email} is now suspended\n`, stderr: '' });
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const refused = await signIn(email);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_SUSPENDED');

    const unsuspended = await userCli('unsuspend', email);
    expect(unsuspended).toEqual({ status: 0, stdout: `${email} is no longer suspended\n`, stderr: '' });
    const again = await signIn(email);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ subscriptionStatus: 'active', subscriptionPlan: 'yearly' });
  });

  it('records the reason given', async () => {
    const { email } = await signUp('reason');
    expect((await userCli('suspend', email, 'spam', 'links')).status).toBe(0);
    const rows = await api.database.db
      .selectFrom('es_events')
      .select('data')
      .where('type', '=', 'UserSuspended')
      .execute();
    expect(rows.map((row) => row.data)).toContainEqual({ reason: 'spam links' });
  });

  it("is listed in the audit history as the operator's doing", async () => {
    const { client, email } = await signUp('audited');
    const { id } = await currentUser(client);
    expect((await userCli('suspend', email, 'spam')).status).toBe(0);
    const events = await api.runtime.eventStore.readStream(`user-${id}`);
    expect(events.find((event) => event.type === 'UserSuspended')?.metadata).toEqual({ channel: 'operator' });
    // The app's runners project what the CLI appended; wait until the audit history has all of it.
    const head = await api.runtime.eventStore.headPosition();
    expect(await api.runtime.progress.waitFor(adminAuditProjection.name, head)).toBe(true);
    const { records } = await auditHistory(api.database.db, { target: `user-${id}`, page: 1, pageSize: 10 });
    expect(records).toEqual([
      {
        eventId: expect.any(String),
        occurredAt: expect.any(Date),
        action: 'UserSuspended',
        actor: { id: 'operator', channel: 'operator', email: null, erased: false },
        target: { streamId: `user-${id}`, type: 'user', id },
        details: { reason: 'spam' },
      },
    ]);
  });

  it('answers exit 2 for an unknown address and 64 for extra arguments to unsuspend', async () => {
    expect((await userCli('suspend', 'nobody.here@example.com')).status).toBe(2);
    const { email } = await signUp('extra');
    const result = await userCli('unsuspend', email, 'please');
    expect(result.status).toBe(64);
    expect(result.stderr).toBe('usage: npm run user:unsuspend -- <email>\n');
  });
});

describe('npm run user:admin', () => {
  it("makes an account an admin, as the operator's doing, and takes it back while another admin remains", async () => {
    const first = await signUp('first.admin');
    const granted = await userCli('admin', first.email);
    expect(granted).toEqual({ status: 0, stdout: `${first.email} is now an admin\n`, stderr: '' });
    const user = await currentUser(first.client);
    expect(user.isAdmin).toBe(true);
    expect((await first.client.get('/api/admin/users')).status).toBe(200);
    const events = await api.runtime.eventStore.readStream(`user-${user.id}`);
    expect(events.find((event) => event.type === 'AdminGranted')).toMatchObject({
      data: { by: 'operator' },
      actorId: 'operator',
    });

    // The last admin cannot be removed, not even by the operator: grant another first.
    const refused = await userCli('admin', first.email, '--revoke');
    expect(refused).toEqual({
      status: 1,
      stdout: '',
      stderr: 'This is the last admin: make another user an admin first.\n',
    });
    const second = await signUp('second.admin');
    expect((await userCli('admin', second.email)).status).toBe(0);
    const revoked = await userCli('admin', first.email, '--revoke');
    expect(revoked).toEqual({ status: 0, stdout: `${first.email} is no longer an admin\n`, stderr: '' });
    expect((await currentUser(first.client)).isAdmin).toBe(false);
    expect((await first.client.get('/api/admin/users')).status).toBe(403);
  }, 120_000);

  it('answers exit 2 for an unknown address and 64 with the usage for other arguments', async () => {
    expect((await userCli('admin', 'nobody.here@example.com')).status).toBe(2);
    const { email } = await signUp('admin.usage');
    const wrong = [[email, '--revoke', 'now'], [email, 'revoke'], []];
    for (const result of await Promise.all(wrong.map((args) => userCli('admin', ...args)))) {
      expect(result.status).toBe(64);
      expect(result.stderr).toBe('usage: npm run user:admin -- <email> [--revoke]\n');
    }
  });
});
