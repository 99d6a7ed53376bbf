import type { AnnouncementDismissalEvent, AnnouncementEvent } from '@sniplink/contracts';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadModels } from '../../read-models';
import { appendHistory, applyInBatches as applyFromLog, snapshot } from '../../testing/fixtures';
import { announcementsProjection } from './projection';
import { allAnnouncements, announcementById, announcementsShownTo } from './queries';

const ADA = '01890000-0000-7000-8000-00000000000a';
const BOB = '01890000-0000-7000-8000-00000000000b';
const FIRST = '01890000-0000-7000-8000-0000000000f1';
const SECOND = '01890000-0000-7000-8000-0000000000f2';
const PRO_ONLY = '01890000-0000-7000-8000-0000000000f3';

const published = (
  announcementId: string,
  changes: Partial<Extract<AnnouncementEvent, { type: 'AnnouncementPublished' }>['data']> = {},
): AnnouncementEvent => ({
  type: 'AnnouncementPublished',
  data: {
    announcementId,
    title: `Title ${announcementId.slice(-2)}`,
    message: 'A message',
    type: 'info',
    targetAudience: 'all',
    isActive: true,
    ...changes,
  },
});
const dismissed = (announcementId: string): AnnouncementDismissalEvent => ({
  type: 'AnnouncementDismissed',
  data: { announcementId },
});

/**
 * In log order: FIRST published, switched off and on again; SECOND published; PRO_ONLY (paid) published
 * switched off; Ada dismisses FIRST; Bob dismisses FIRST and SECOND, then is erased.
 */
const history: Array<[stream: string, events: Array<{ type: string; data: unknown }>]> = [
  [
    `announcement-${FIRST}`,
    [
      published(FIRST, { type: 'warning' }),
      { type: 'AnnouncementSwitchedOff', data: { announcementId: FIRST } },
      { type: 'AnnouncementSwitchedOn', data: { announcementId: FIRST } },
    ],
  ],
  [`announcement-${SECOND}`, [published(SECOND)]],
  [`announcement-${PRO_ONLY}`, [published(PRO_ONLY, { targetAudience: 'paid', isActive: false })]],
  [`announcementdismissals-${ADA}`, [dismissed(FIRST)]],
  [`announcementdismissals-${BOB}`, [dismissed(FIRST), dismissed(SECOND)]],
  [`user-${BOB}`, [{ type: 'UserErased', data: {} }]],
];

describe('announcements projection', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    await appendHistory(stack.eventStore, history);
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await applyFromLog(db, stack.eventStore, announcementsProjection, { batchSize, times });
    return [
      await snapshot(db, 'rm_announcements', 'announcement_id'),
      await snapshot(db, 'rm_announcement_dismissals', 'announcement_id'),
    ];
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
  });

  it('lists every announcement newest first, as its last event left it, created when published', async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
    const listed = await allAnnouncements(db);
    expect(
      listed.map(({ id, type, targetAudience, isActive }) => ({ id, type, targetAudience, isActive })),
    ).toEqual([
      { id: PRO_ONLY, type: 'info', targetAudience: 'paid', isActive: false },
      { id: SECOND, type: 'info', targetAudience: 'all', isActive: true },
      { id: FIRST, type: 'warning', targetAudience: 'all', isActive: true },
    ]);
    expect((await announcementById(db, FIRST))?.createdAt).toBe('2027-01-01T00:00:00.000Z');
    expect(await announcementById(db, '01890000-0000-7000-8000-0000000000ff')).toBeNull();
  });

  it("shows a user the active ones for their audiences, minus those they dismissed; erasure drops a user's dismissals", async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
    const shown = async (userId: string, audiences: Parameters<typeof announcementsShownTo>[2]) =>
      (await announcementsShownTo(db, userId, audiences)).map((announcement) => announcement.id);
    expect(await shown(ADA, ['all', 'free'])).toEqual([SECOND]);
    // PRO_ONLY is switched off: no one sees it, Pro users neither.
    expect(await shown(ADA, ['all', 'paid'])).toEqual([SECOND]);
    // Bob's dismissals went with his account.
    const bobs = await withReadModels(db)
      .selectFrom('rm_announcement_dismissals')
      .selectAll()
      .where('user_id', '=', BOB)
      .execute();
    expect(bobs).toEqual([]);
    expect(await shown(BOB, ['all', 'free'])).toEqual([SECOND, FIRST]);
  });
});
