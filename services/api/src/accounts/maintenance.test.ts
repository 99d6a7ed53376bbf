import { emailClaimStreamId } from '@sniplink/domain';
import { type Clock, createLogger, fixedClock, systemClock } from '@sniplink/platform';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseOrphanedEmailClaims, shredKeysOfErasedUsers } from './maintenance';

describe('the sweeper of e-mail claims left by interrupted registrations', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  const claimWithoutAccount = async (email: string, minutesAgo: number, at = new Date()) => {
    const stream = emailClaimStreamId(api.runtime.accounts.emailHash(email));
    const occurredAt = new Date(at.getTime() - minutesAgo * 60_000);
    const event = { id: uuidv7(), type: 'EmailClaimed', data: { userId: uuidv7() }, occurredAt };
    const { position } = await api.runtime.eventStore.appendToStream(stream, [event], 'no_stream');
    expect(await api.runtime.progress.waitFor('stream-catalogue', position, 5_000)).toBe(true);
  };
  const sweep = (graceMs?: number, clock: Clock = systemClock) =>
    releaseOrphanedEmailClaims(
      { db: api.runtime.database.db, eventStore: api.runtime.eventStore, log: createLogger('silent'), clock },
      graceMs,
    );

  it('frees an address whose registration never finished, so it can sign up again', async () => {
    const email = `orphan.${Date.now()}@example.com`;
    await claimWithoutAccount(email, 30);
    const blocked = await api.client().post('/api/auth/register', { email, password: 'correct horse' });
    expect(blocked.status).toBe(409);
    expect(await sweep()).toBe(1);
    const retried = await api.client().post('/api/auth/register', { email, password: 'correct horse' });
    expect(retried.status).toBe(201);
  });

  it('leaves fresh claims alone (their registration may still be running)', async () => {
    const fresh = `fresh.${Date.now()}@example.com`;
    await claimWithoutAccount(fresh, 1);
    expect(await sweep()).toBe(0);
    expect(
      (await api.client().post('/api/auth/register', { email: fresh, password: 'correct horse' })).status,
    ).toBe(409);
  });

  it('counts the ten minutes on its clock: a claim is released from 10 minutes after it, not a second before', async () => {
    // Long before every other claim of this database, so only this one can be old enough at these instants.
    const email = `stale.${Date.now()}@example.com`;
    await claimWithoutAccount(email, 0, new Date('2026-01-31T23:55:00.000Z'));
    const clock = fixedClock('2026-02-01T00:04:59.000Z');
    expect(await sweep(undefined, clock)).toBe(0);
    clock.set('2026-02-01T00:05:01.000Z');
    expect(await sweep(undefined, clock)).toBe(1);
    const released = (
      await api.runtime.eventStore.readStream(emailClaimStreamId(api.runtime.accounts.emailHash(email)))
    ).at(-1);
    expect(released).toMatchObject({
      type: 'EmailReleased',
      occurredAt: new Date('2026-02-01T00:05:01.000Z'),
    });
  });

  it('never releases the address of an account that exists', async () => {
    const real = `real.${Date.now()}@example.com`;
    const client = api.client();
    expect((await client.post('/api/auth/register', { email: real, password: 'correct horse' })).status).toBe(
      201,
    );
    const { position } = await api.runtime.eventStore.appendToStream(
      'probe-sweeper',
      [{ id: uuidv7(), type: 'EmailReleased', data: { userId: uuidv7() }, occurredAt: new Date() }],
      'no_stream',
    );
    await api.runtime.progress.waitFor('stream-catalogue', position, 5_000);
    await sweep(0);
    expect(
      (await api.client().post('/api/auth/register', { email: real, password: 'other pass' })).status,
    ).toBe(409);
    expect(
      (await api.client().post('/api/auth/login', { email: real, password: 'correct horse' })).status,
    ).toBe(200);
  });

  it('shreds the key of a user whose erasure stopped after UserErased', async () => {
    const email = `half.${Date.now()}@example.com`;
    const created = await api
      .client()
      .post<{ id: string }>('/api/auth/register', { email, password: 'correct horse' });
    const userId = created.body.id;
    await api.runtime.accounts.command(userId, { type: 'EraseUser' }); // …and then the process died
    const deps = {
      db: api.runtime.database.db,
      eventStore: api.runtime.eventStore,
      log: createLogger('silent'),
      keyring: api.runtime.keyring,
      clock: systemClock,
    };
    expect(await shredKeysOfErasedUsers(deps)).toBe(1);
    const key = await api.runtime.database.db
      .selectFrom('user_keys')
      .select('user_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    expect(key).toBeUndefined();
    // Running the erasure again finishes the rest: the address is free.
    await api.runtime.accounts.erase(userId);
    expect((await api.client().post('/api/auth/register', { email, password: 'correct horse' })).status).toBe(
      201,
    );
  });
});
