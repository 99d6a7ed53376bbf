import type { AnnouncementEvent } from '@sniplink/contracts';
import { events, onStream } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
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
) => events.announcementPublished({ announcementId, title: `Title ${announcementId.slice(-2)}`, ...changes });
const dismissed = (announcementId: string) => events.announcementDismissed({ announcementId });

describe('announcements projection', () => {
  const spec = projectionSpec(announcementsProjection);
  /**
   * In log order: FIRST published, switched off and on again; SECOND published; PRO_ONLY (paid) published
   * switched off; Ada dismisses FIRST; Bob dismisses FIRST and SECOND, then is erased.
   */
  beforeAll(() =>
    spec.given(
      onStream(
        `announcement-${FIRST}`,
        published(FIRST, { type: 'warning' }),
        events.announcementSwitchedOff({ announcementId: FIRST }),
        events.announcementSwitchedOn({ announcementId: FIRST }),
      ),
      onStream(`announcement-${SECOND}`, published(SECOND)),
      onStream(`announcement-${PRO_ONLY}`, published(PRO_ONLY, { targetAudience: 'paid', isActive: false })),
      onStream(`announcementdismissals-${ADA}`, dismissed(FIRST)),
      onStream(`announcementdismissals-${BOB}`, dismissed(FIRST), dismissed(SECOND)),
      onStream(`user-${BOB}`, events.userErased()),
    ),
  );

  it('lists every announcement newest first, as its last event left it, created when published', async () => {
    const { db } = spec;
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
    const { db } = spec;
    const shown = async (userId: string, audiences: Parameters<typeof announcementsShownTo>[2]) =>
      (await announcementsShownTo(db, userId, audiences)).map((announcement) => announcement.id);
    expect(await shown(ADA, ['all', 'free'])).toEqual([SECOND]);
    // PRO_ONLY is switched off: no one sees it, Pro users neither.
    expect(await shown(ADA, ['all', 'paid'])).toEqual([SECOND]);
    // Bob's dismissals went with his account.
    const bobs = await spec.readModels
      .selectFrom('rm_announcement_dismissals')
      .selectAll()
      .where('user_id', '=', BOB)
      .execute();
    expect(bobs).toEqual([]);
    expect(await shown(BOB, ['all', 'free'])).toEqual([SECOND, FIRST]);
  });
});
