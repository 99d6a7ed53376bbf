import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AccountService, LoginThrottle, postgresRateLimiters } from '@sniplink/api';
import { type User, userEvents } from '@sniplink/contracts';
import { appSecret, type Database, Keyring, type ReadModelWaiter } from '@sniplink/platform';
import { withReadModels } from '@sniplink/projections';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { runCliProcess } from '@sniplink/test-support/cli-process';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/architecture.md, "Personal data": erasure appends UserErased, waits until
// it is projected, then deletes the user's key, so the ciphertext left in the log can never be read again.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const cli = (file: string, ...args: string[]) =>
  runCliProcess(path.resolve(import.meta.dirname, file), args, {
    DATABASE_URL: api.database.connectionString,
  });

/** Every table of the database whose rows, as text (every column), contain one of the strings. */
async function tablesHolding(db: Kysely<Database>, strings: readonly string[]): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  const holding = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(name)} t`.execute(db);
    const text = rows.map((row) => row.row.toLowerCase()).join('\n');
    if (strings.some((value) => text.includes(value.toLowerCase()))) holding.push(name);
  }
  return holding.sort();
}

describe('npm run user:erase', () => {
  const unique = randomBytes(4).toString('hex');
  const person = {
    email: `Erin.${unique}@Example.com`,
    firstName: `Zebulon${unique}`,
    lastName: `Quax${unique}`,
  };
  const personal = [person.email, person.firstName, person.lastName];
  let client: HttpClient;
  let erased: User;

  beforeAll(async () => {
    client = api.client();
    const registered = await client.post<User>('/api/auth/register', {
      ...person,
      password: 'correct horse',
    });
    expect(registered.status).toBe(201);
    erased = registered.body;
    // The scan finds what it looks for: before erasure the read model holds the plaintext, the log does not.
    expect(await tablesHolding(api.database.db, personal)).toEqual(['rm_users']);
  });

  it('erases the account and says what it did', async () => {
    const result = await cli('user-erase.ts', person.email);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      `${person.email} is erased (user ${erased.id}): personal data dropped from the read models, ` +
        'address released, sessions and credentials deleted, key deleted\n',
    );
  });

  it('leaves no plaintext e-mail or name anywhere: event log, read models, operational tables', async () => {
    expect(await tablesHolding(api.database.db, personal)).toEqual([]);
  });

  it('ends the sessions', async () => {
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('deletes the key, so the ciphertext in the log can no longer be read', async () => {
    const keys = await api.database.db.selectFrom('user_keys').where('user_id', '=', erased.id).execute();
    expect(keys).toEqual([]);
    const [registered] = await api.runtime.eventStore.readStream(`user-${erased.id}`, { maxCount: 1 });
    const event = registered && userEvents.narrow(registered);
    if (event?.type !== 'UserRegistered') throw new Error('The stream does not start with UserRegistered');
    const { email } = event.data;
    expect(email).toMatch(/^enc:v1:/);
    expect(await new Keyring(api.database.db).decrypt(erased.id, email)).toBeNull();
  });

  it('renders the account as erased after a rebuild', async () => {
    // The rebuild takes each projection's lock: the app's runners give theirs up meanwhile.
    await Promise.all(api.runtime.runners.map((runner) => runner.stop()));
    try {
      const rebuilt = await cli('rebuild-projections.ts');
      // stderr carries the progress bars; stdout one line per read model swapped in.
      expect(rebuilt.status, rebuilt.stderr).toBe(0);
      expect(rebuilt.stdout).toMatch(/^rebuilt users: \d+ events/m);
    } finally {
      for (const runner of api.runtime.runners) runner.start();
    }
    const row = await withReadModels(api.database.db)
      .selectFrom('rm_users')
      .selectAll()
      .where('user_id', '=', erased.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      erased: true,
      email: null,
      email_normalized: null,
      first_name: null,
      last_name: null,
      profile_image_url: null,
      subscription_status: 'inactive',
    });
    expect(await tablesHolding(api.database.db, personal)).toEqual([]);
  });

  it('frees the address: it can sign up again, as a new account', async () => {
    const again = await api
      .client()
      .post<User>('/api/auth/register', { ...person, password: 'another horse' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(erased.id);
  });

  it('answers exit 2 when asked to erase an address no account holds', async () => {
    const result = await cli('user-erase.ts', `gone.${unique}@example.com`);
    expect(result).toEqual({ status: 2, stdout: '', stderr: 'No account with that e-mail address\n' });
  });
});

describe('AccountService.erase', () => {
  /** The app's services, but with a users read model that never catches up. */
  async function accountsWithStuckReadModel(asked: (number | undefined)[]) {
    const readModels: ReadModelWaiter = {
      waitFor: async (_projection, _position, timeoutMs) => {
        asked.push(timeoutMs);
        return false;
      },
    };
    const { db, pool } = api.database;
    return new AccountService({
      db,
      eventStore: api.runtime.eventStore,
      keyring: api.runtime.keyring,
      emailSecret: await appSecret(db, 'email-hash'),
      sessions: api.runtime.sessions,
      throttle: new LoginThrottle({ limiters: postgresRateLimiters({ pool }) }, api.config.loginLimits),
      readModels,
      adminEmails: [],
      settings: api.runtime.settings,
      clock: api.runtime.clock,
      ids: api.runtime.ids,
    });
  }

  it('keeps the key and fails loudly when the users read model does not pass UserErased', async () => {
    const asked: (number | undefined)[] = [];
    const accounts = await accountsWithStuckReadModel(asked);
    const userId = await accounts.register({
      email: `stuck.${Date.now()}@example.com`,
      password: 'correct horse',
    });
    asked.length = 0;
    await expect(accounts.erase(userId)).rejects.toThrow(/did not catch up within 30 s, so its key was kept/);
    expect(asked).toEqual([undefined, 30_000]);
    const keys = await api.database.db.selectFrom('user_keys').where('user_id', '=', userId).execute();
    expect(keys).toHaveLength(1);
  });

  it('erases an erased account again without harm, and refuses an id that never existed', async () => {
    const accounts = api.runtime.accounts;
    const userId = await accounts.register({
      email: `twice.${Date.now()}@example.com`,
      password: 'correct horse',
    });
    await accounts.erase(userId);
    const eventsBefore = await api.runtime.eventStore.readStream(`user-${userId}`);
    await accounts.erase(userId);
    expect(await api.runtime.eventStore.readStream(`user-${userId}`)).toHaveLength(eventsBefore.length);
    await expect(accounts.erase('01890000-0000-7000-8000-0000000000ff')).rejects.toMatchObject({
      name: 'NotFoundError',
      status: 404,
    });
  });
});
