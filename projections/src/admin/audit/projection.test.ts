import type { EventToAppend } from '@sniplink/platform';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadModels } from '../../read-models';
import { applyInBatches as applyFromLog, readEntireLog, snapshot } from '../../testing/fixtures';
import { auditDetails } from './details';
import { adminAuditProjection } from './projection';
import { auditHistory } from './queries';

const ADMIN = '01890000-0000-7000-8000-0000000000a1';
const ERASED_ADMIN = '01890000-0000-7000-8000-0000000000a2';
const ADA = '01890000-0000-7000-8000-00000000000a';
const BOB = '01890000-0000-7000-8000-00000000000b';
const CIPHER = 'enc:v1:c2VjcmV0LW5hbWU';

type Channel = 'admin-console' | 'operator' | null;
let second = 0;
const event = (type: string, data: unknown, actorId: string, channel: Channel): EventToAppend => ({
  id: uuidv7(),
  type,
  data,
  actorId,
  metadata: channel ? { channel } : {},
  occurredAt: new Date(Date.UTC(2026, 10, 27, 9, 0, second++)),
});

/**
 * Ada's stream: her own profile edits, an admin's suspension and unsuspension, an operator's plan grant,
 * one from an operator's tool of the days before channels were recorded, and a name an admin set (its
 * values encrypted). Bob's stream: an erased admin's suspension.
 */
const histories: Record<string, EventToAppend[]> = {
  [`user-${ADA}`]: [
    event('UserProfileUpdated', { firstName: CIPHER, lastName: null }, ADA, null),
    event('UserSuspended', { reason: 'spam' }, ADMIN, 'admin-console'),
    event('UserUnsuspended', {}, ADMIN, 'admin-console'),
    event(
      'SubscriptionStarted',
      { plan: 'yearly', provider: 'operator', reference: null },
      'operator',
      'operator',
    ),
    event('SubscriptionEnded', { reason: 'operator' }, 'operator', null),
    event('UserProfileUpdated', { firstName: CIPHER, lastName: CIPHER }, ADMIN, 'admin-console'),
    event('UserIdentityLinked', { issuer: 'https://id.example', subjectHash: 'h' }, ADA, null),
  ],
  [`user-${BOB}`]: [event('UserSuspended', { reason: null }, ERASED_ADMIN, 'admin-console')],
};

describe('admin audit projection', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    for (const [stream, events] of Object.entries(histories)) {
      await stack.eventStore.appendToStream(stream, events, 'no_stream');
    }
    const now = new Date();
    await withReadModels(stack.database.db)
      .insertInto('rm_users')
      .values([
        { user_id: ADMIN, email: 'admin@example.com', created_at: now, updated_at: now, last_revision: 0 },
        {
          user_id: ERASED_ADMIN,
          email: null,
          erased: true,
          created_at: now,
          updated_at: now,
          last_revision: 1,
        },
      ])
      .execute();
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await applyFromLog(db, stack.eventStore, adminAuditProjection, { batchSize, times });
    return snapshot(db, 'rm_admin_audit', 'event_id');
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(once).toHaveLength(6);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
    // Twice within one batch, too.
    const events = await readEntireLog(stack.eventStore);
    await sql`TRUNCATE rm_admin_audit`.execute(stack.database.db);
    await stack.database.db
      .transaction()
      .execute((trx) => adminAuditProjection.apply(withReadModels(trx), [...events, ...events]));
    expect(await snapshot(stack.database.db, 'rm_admin_audit', 'event_id')).toEqual(once);
  });

  it("lists what admins and operators did, newest first, and nothing of a user's own doing", async () => {
    await applyInBatches(50, 1);
    const { records, hasMore } = await auditHistory(stack.database.db, { page: 1, pageSize: 20 });
    expect(hasMore).toBe(false);
    expect(records.map((record) => [record.action, record.actor.id, record.actor.channel])).toEqual([
      ['UserSuspended', ERASED_ADMIN, 'admin-console'],
      ['UserProfileUpdated', ADMIN, 'admin-console'],
      ['SubscriptionEnded', 'operator', 'operator'],
      ['SubscriptionStarted', 'operator', 'operator'],
      ['UserUnsuspended', ADMIN, 'admin-console'],
      ['UserSuspended', ADMIN, 'admin-console'],
    ]);
    expect(records.at(-1)).toEqual({
      eventId: histories[`user-${ADA}`]?.[1]?.id,
      occurredAt: new Date('2026-11-27T09:00:01.000Z'),
      action: 'UserSuspended',
      actor: { id: ADMIN, channel: 'admin-console', email: 'admin@example.com', erased: false },
      target: { streamId: `user-${ADA}`, type: 'user', id: ADA },
      details: { reason: 'spam' },
    });
  });

  it('shows no encrypted value in any entry, and names an erased admin as erased', async () => {
    await applyInBatches(50, 1);
    const { records } = await auditHistory(stack.database.db, { page: 1, pageSize: 20 });
    expect(JSON.stringify(records)).not.toContain('enc:');
    expect(records.find((record) => record.action === 'UserProfileUpdated')?.details).toEqual({});
    expect(records[0]?.actor).toEqual({
      id: ERASED_ADMIN,
      channel: 'admin-console',
      email: null,
      erased: true,
    });
    expect(records.find((record) => record.actor.id === 'operator')?.actor).toMatchObject({
      email: null,
      erased: false,
    });
  });

  it('filters by acting admin, by target (stream id or id alone), by both, and pages', async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
    const actions = async (filter: { actor?: string; target?: string; page?: number; pageSize?: number }) => {
      const { records, hasMore } = await auditHistory(db, { page: 1, pageSize: 20, ...filter });
      return { actions: records.map((record) => record.action), hasMore };
    };
    expect(await actions({ actor: ADMIN })).toEqual({
      actions: ['UserProfileUpdated', 'UserUnsuspended', 'UserSuspended'],
      hasMore: false,
    });
    expect((await actions({ target: `user-${BOB}` })).actions).toEqual(['UserSuspended']);
    expect((await actions({ target: BOB })).actions).toEqual(['UserSuspended']);
    expect((await actions({ target: `user-${ADA}`, actor: 'operator' })).actions).toEqual([
      'SubscriptionEnded',
      'SubscriptionStarted',
    ]);
    expect((await actions({ actor: ADA })).actions).toEqual([]);
    expect(await actions({ target: ADA, pageSize: 2 })).toEqual({
      actions: ['UserProfileUpdated', 'SubscriptionEnded'],
      hasMore: true,
    });
    expect(await actions({ target: ADA, pageSize: 2, page: 2 })).toEqual({
      actions: ['SubscriptionStarted', 'UserUnsuspended'],
      hasMore: true,
    });
    expect(await actions({ target: ADA, pageSize: 2, page: 3 })).toEqual({
      actions: ['UserSuspended'],
      hasMore: false,
    });
  });
});

describe('what an audit entry shows of an event', () => {
  it('leaves out ciphertext, personal and secret fields, and bounds the rest', () => {
    expect(
      auditDetails({
        key: 'free.links',
        value: 'x'.repeat(300),
        email: 'ada@example.com',
        passwordHash: 'argon2…',
        apiToken: 't',
        emailHash: 'h',
        nested: { note: CIPHER, kept: 1, deeper: { deepest: { gone: true } } },
        list: [CIPHER, 'shown'],
      }),
    ).toEqual({
      key: 'free.links',
      value: `${'x'.repeat(200)}…`,
      nested: { kept: 1, deeper: {} },
      list: ['shown'],
    });
    expect(auditDetails(null)).toEqual({ value: null });
    expect(auditDetails(undefined)).toEqual({});
  });
});
