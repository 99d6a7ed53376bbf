import type { RecordedEvent } from '@sniplink/platform';
import { type ContractEvent, events, type GivenEvent } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
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
const by = (streamId: string, event: ContractEvent, actorId: string, channel: Channel): GivenEvent => ({
  streamId,
  event,
  actorId,
  metadata: channel ? { channel } : {},
  occurredAt: new Date(Date.UTC(2026, 10, 27, 9, 0, second++)),
});

/**
 * Ada's stream: her own profile edits, an admin's suspension and unsuspension, an operator's plan grant,
 * one from an operator's tool of the days before channels were recorded, and a name an admin set (its
 * values encrypted). Bob's stream: an erased admin's suspension.
 */
const history: GivenEvent[] = [
  by(`user-${ADA}`, events.userProfileUpdated({ firstName: CIPHER, lastName: null }), ADA, null),
  by(`user-${ADA}`, events.userSuspended({ reason: 'spam' }), ADMIN, 'admin-console'),
  by(`user-${ADA}`, events.userUnsuspended(), ADMIN, 'admin-console'),
  by(
    `user-${ADA}`,
    events.subscriptionStarted({ plan: 'yearly', provider: 'operator' }),
    'operator',
    'operator',
  ),
  by(`user-${ADA}`, events.subscriptionEnded({ reason: 'operator' }), 'operator', null),
  by(
    `user-${ADA}`,
    events.userProfileUpdated({ firstName: CIPHER, lastName: CIPHER }),
    ADMIN,
    'admin-console',
  ),
  by(`user-${ADA}`, events.userIdentityLinked({ issuer: 'https://id.example', subjectHash: 'h' }), ADA, null),
  by(`user-${BOB}`, events.userSuspended({ reason: null }), ERASED_ADMIN, 'admin-console'),
];

describe('admin audit projection', () => {
  const spec = projectionSpec(adminAuditProjection);
  let recorded: RecordedEvent[];
  beforeAll(async () => {
    const now = new Date();
    await spec.readModels
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
    recorded = await spec.given(history);
  });

  const entries = () =>
    spec.readModels.selectFrom('rm_admin_audit').selectAll().orderBy('event_id').execute();

  it('gives the same rows when an event comes twice within one batch', async () => {
    const once = await entries();
    expect(once).toHaveLength(6);
    await sql`TRUNCATE rm_admin_audit`.execute(spec.db);
    await spec.apply([...recorded, ...recorded]);
    expect(await entries()).toEqual(once);
  });

  it("lists what admins and operators did, newest first, and nothing of a user's own doing", async () => {
    const { records, hasMore } = await auditHistory(spec.db, { page: 1, pageSize: 20 });
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
      eventId: recorded[1]?.id,
      occurredAt: new Date('2026-11-27T09:00:01.000Z'),
      action: 'UserSuspended',
      actor: { id: ADMIN, channel: 'admin-console', email: 'admin@example.com', erased: false },
      target: { streamId: `user-${ADA}`, type: 'user', id: ADA },
      details: { reason: 'spam' },
    });
  });

  it('shows no encrypted value in any entry, and names an erased admin as erased', async () => {
    const { records } = await auditHistory(spec.db, { page: 1, pageSize: 20 });
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
    const { db } = spec;
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
