import type { AdminDocEvent } from '@sniplink/contracts/admin-docs/events';
import type { GivenEvent } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminDocsProjection } from './projection';
import { adminDoc, adminDocs } from './queries';

const ADA = '01890000-0000-7000-8000-0000000000a1';
const BOB = '01890000-0000-7000-8000-0000000000b2';
const ERASED = '01890000-0000-7000-8000-0000000000e3';
const SUSPEND = '01890000-0000-7000-8000-0000000000d1';
const SEED = '01890000-0000-7000-8000-0000000000d2';
const GONE = '01890000-0000-7000-8000-0000000000d3';

const doc = { section: 'users', title: 'Suspending', content: '# Suspend', sortOrder: 20 } as const;
let second = 0;
const by = (docId: string, event: AdminDocEvent, actorId: string): GivenEvent => ({
  streamId: `admindoc-${docId}`,
  event,
  actorId,
  occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, second++)),
});

/**
 * A doc Ada writes and Bob edits; a starter doc seeded by an admin since erased; a doc written and
 * deleted.
 */
const history: GivenEvent[] = [
  by(SUSPEND, { type: 'AdminDocCreated', data: { docId: SUSPEND, ...doc, seeded: false } }, ADA),
  by(
    SEED,
    {
      type: 'AdminDocCreated',
      data: {
        docId: SEED,
        section: 'users',
        title: 'The Users tab',
        content: 'x',
        sortOrder: 10,
        seeded: true,
      },
    },
    ERASED,
  ),
  by(GONE, { type: 'AdminDocCreated', data: { docId: GONE, ...doc, title: 'Old', seeded: false } }, ADA),
  by(SUSPEND, { type: 'AdminDocEdited', data: { docId: SUSPEND, ...doc, content: '## Suspend' } }, BOB),
  by(GONE, { type: 'AdminDocDeleted', data: { docId: GONE, title: 'Old' } }, BOB),
];

describe('admin docs projection', () => {
  const spec = projectionSpec(adminDocsProjection);
  beforeAll(async () => {
    const now = new Date();
    const user = (user_id: string, email: string | null, erased: boolean) => ({
      user_id,
      email,
      erased,
      created_at: now,
      updated_at: now,
      last_revision: 0,
    });
    await spec.readModels
      .insertInto('rm_users')
      .values([
        user(ADA, 'ada@example.com', false),
        user(BOB, 'bob@example.com', false),
        user(ERASED, null, true),
      ])
      .execute();
    // Every event is delivered twice as well: the rows must be the same.
    await spec.given(history);
  });

  it('lists each live doc as its last event left it, by sortOrder, with its last writer named now', async () => {
    expect(await adminDocs(spec.db)).toEqual([
      {
        id: SEED,
        section: 'users',
        title: 'The Users tab',
        content: 'x',
        sortOrder: 10,
        lastUpdatedById: ERASED,
        lastUpdatedByEmail: null,
        updatedAt: new Date(Date.UTC(2027, 0, 1, 0, 0, 1)),
      },
      {
        id: SUSPEND,
        ...doc,
        content: '## Suspend',
        lastUpdatedById: BOB,
        lastUpdatedByEmail: 'bob@example.com',
        updatedAt: new Date(Date.UTC(2027, 0, 1, 0, 0, 3)),
      },
    ]);
  });

  it('keeps a deleted doc out of the list and of a look-up, and filters by section', async () => {
    expect(await adminDoc(spec.db, GONE)).toBeUndefined();
    expect(await adminDocs(spec.db, 'support')).toEqual([]);
    expect((await adminDocs(spec.db, 'users')).map((row) => row.id)).toEqual([SEED, SUSPEND]);
  });
});
