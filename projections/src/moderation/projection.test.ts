import { events, onStream } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { moderationListsProjection, slugApprovalsProjection } from './projection';
import {
  activeModerationEntries,
  codeRejectionsOf,
  prohibitedWords,
  protectedBrands,
  slugApprovalById,
  slugApprovals,
} from './queries';

const SCAM = '01890000-0000-7000-8000-0000000000e1';
const SPAM = '01890000-0000-7000-8000-0000000000e2';
const GONE = '01890000-0000-7000-8000-0000000000e3';
const ACME = '01890000-0000-7000-8000-0000000000e4';
const OWNER = '01890000-0000-7000-8000-00000000a001';
const APPROVED_LINK = '01890000-0000-7000-8000-00000000c001';
const REJECTED_LINK = '01890000-0000-7000-8000-00000000c002';
const MOVED_LINK = '01890000-0000-7000-8000-00000000c003';
const DELETED_LINK = '01890000-0000-7000-8000-00000000c004';
const APPROVED = '01890000-0000-7000-8000-0000000000a1';
const REJECTED = '01890000-0000-7000-8000-0000000000a2';
const MOVED = '01890000-0000-7000-8000-0000000000a3';
const MOVED_AGAIN = '01890000-0000-7000-8000-0000000000a4';
const DELETED = '01890000-0000-7000-8000-0000000000a5';

const review = (approvalId: string) => ({ approvalId, brand: 'Acme', ownerId: OWNER });
const created = (linkId: string, code: string, approvalId: string) =>
  events.linkCreated({ linkId, ownerId: OWNER, code, review: review(approvalId) });

describe('moderation read models', () => {
  const spec = projectionSpec([moderationListsProjection, slugApprovalsProjection]);
  beforeAll(() =>
    spec.given(
      onStream(
        `prohibitedword-${SCAM}`,
        events.prohibitedWordAdded({ wordId: SCAM, word: 'scam' }),
        events.prohibitedWordSwitchedOff({ wordId: SCAM }),
      ),
      onStream(`prohibitedword-${SPAM}`, events.prohibitedWordAdded({ wordId: SPAM, word: 'spammy' })),
      onStream(
        `prohibitedword-${GONE}`,
        events.prohibitedWordAdded({ wordId: GONE, word: 'gone' }),
        events.prohibitedWordDeleted({ wordId: GONE }),
      ),
      onStream(`protectedbrand-${ACME}`, events.protectedBrandAdded({ brandId: ACME, brand: 'Acme' })),
      onStream(
        `link-${APPROVED_LINK}`,
        created(APPROVED_LINK, 'acme-shop', APPROVED),
        events.linkCodeApproved({ approvalId: APPROVED, code: 'acme-shop', notes: 'their own' }),
      ),
      onStream(
        `link-${REJECTED_LINK}`,
        created(REJECTED_LINK, 'acme-deals', REJECTED),
        events.linkCodeRejected({ approvalId: REJECTED, code: 'acme-deals' }),
        events.linkCodeChanged({ code: 'x7k2p9q', previousCode: 'acme-deals' }),
      ),
      onStream(
        `link-${MOVED_LINK}`,
        created(MOVED_LINK, 'acme-one', MOVED),
        events.linkCodeChanged({ code: 'acme-two', previousCode: 'acme-one', review: review(MOVED_AGAIN) }),
      ),
      onStream(`link-${DELETED_LINK}`, created(DELETED_LINK, 'acme-old', DELETED), events.linkDeleted()),
    ),
  );

  it('lists the words and brands as their last event left them; a deleted one is gone', async () => {
    expect((await prohibitedWords(spec.db)).map(({ word, isActive }) => ({ word, isActive }))).toEqual([
      { word: 'spammy', isActive: true },
      { word: 'scam', isActive: false },
    ]);
    expect((await protectedBrands(spec.db)).map(({ brand }) => brand)).toEqual(['Acme']);
  });

  it('gives the checker only the active entries', async () => {
    expect(await activeModerationEntries(spec.db)).toEqual([
      { kind: 'word', text: 'spammy' },
      { kind: 'brand', text: 'Acme', requiresApproval: true },
    ]);
  });

  it('opens an approval per code in review; a decision closes it, a move or a deletion withdraws it', async () => {
    expect((await slugApprovals(spec.db, 'pending')).map(({ id, slug }) => ({ id, slug }))).toEqual([
      { id: MOVED_AGAIN, slug: 'acme-two' },
    ]);
    expect(await slugApprovals(spec.db, 'approved')).toEqual([
      expect.objectContaining({ id: APPROVED, slug: 'acme-shop', notes: 'their own', userId: OWNER }),
    ]);
    expect(await slugApprovals(spec.db, 'rejected')).toEqual([
      expect.objectContaining({ id: REJECTED, matchedBrand: 'Acme', reason: 'Brand protection violation' }),
    ]);
    expect(await slugApprovalById(spec.db, MOVED)).toBeUndefined();
    expect(await slugApprovalById(spec.db, DELETED)).toBeUndefined();
  });

  it('tells the owner of a rejected code which code the link has now', async () => {
    expect(await codeRejectionsOf(spec.db, OWNER, new Date(0))).toEqual([
      expect.objectContaining({ rejectedCode: 'acme-deals', newCode: 'x7k2p9q', linkId: REJECTED_LINK }),
    ]);
  });
});
