import type { LinkEvent, UserEvent } from '@sniplink/contracts';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceProjection } from '../marketplace/projection';
import { premiumSlugByCode } from '../marketplace/queries';
import { appendHistory, applyInBatches as applyFromLog, readEntireLog, snapshot } from '../testing/fixtures';
import { linksProjection } from './projection';
import { liveLinkByCode } from './queries';

const ANN = '01890000-0000-7000-8000-0000000000a1';
const BOB = '01890000-0000-7000-8000-0000000000b1';
const ANNS_LINK = '01890000-0000-7000-8000-0000000000c1';
const BOBS_LINK = '01890000-0000-7000-8000-0000000000c2';
const SLUG = '01890000-0000-7000-8000-0000000000d1';

const created = (linkId: string, ownerId: string, code: string): LinkEvent => ({
  type: 'LinkCreated',
  data: {
    linkId,
    ownerId,
    code,
    originalUrl: `https://example.com/${code}`,
    title: null,
    origin: 'dashboard',
  },
});
const suspended: UserEvent = { type: 'UserSuspended', data: { reason: 'spam' } };
const unsuspended: UserEvent = { type: 'UserUnsuspended', data: {} };

/** Ann suspended, back, suspended again (her premium slug too); Bob suspended and back. */
const history = [
  [`link-${ANNS_LINK}`, [created(ANNS_LINK, ANN, 'Anns')]],
  [`link-${BOBS_LINK}`, [created(BOBS_LINK, BOB, 'bobs')]],
  [`user-${ANN}`, [suspended, unsuspended, suspended]],
  [`user-${BOB}`, [suspended, unsuspended]],
  [
    `premiumslug-${SLUG}`,
    [
      {
        type: 'PremiumSlugAdded',
        data: {
          slugId: SLUG,
          slug: 'deals',
          price: 2500,
          category: 'commerce',
          tier: 'standard',
          isAvailable: true,
          stripePriceId: null,
        },
      },
      {
        type: 'PremiumSlugPurchased',
        data: {
          slugId: SLUG,
          holdId: SLUG,
          buyerId: ANN,
          paymentId: 'pi_1',
          amount: 2500,
          currency: 'usd',
          providerEventId: 'evt_1',
        },
      },
    ],
  ],
] as const;

describe("links projection: owners' suspension", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    await appendHistory(stack.eventStore, history);
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await applyFromLog(db, stack.eventStore, linksProjection(), { batchSize, times });
    return [await snapshot(db, 'rm_links', 'link_id'), await snapshot(db, 'rm_link_owners', 'owner_id')];
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
  });

  it("marks a suspended owner's link and premium slug, keeping them by their code; an unsuspended owner's redirect", async () => {
    const { db } = stack.database;
    await applyInBatches(50, 1);
    await applyFromLog(db, stack.eventStore, marketplaceProjection, { batchSize: 50, times: 1 });
    expect(await liveLinkByCode(db, 'anns')).toMatchObject({ link_id: ANNS_LINK, owner_suspended: true });
    expect(await liveLinkByCode(db, 'bobs')).toMatchObject({ link_id: BOBS_LINK, owner_suspended: false });
    expect(await premiumSlugByCode(db, 'deals')).toMatchObject({ owner_id: ANN, owner_suspended: true });
  });

  it('tells the redirect caches every code of the owner changed: owner:{id}', async () => {
    const told: string[][] = [];
    const projection = linksProjection(async (codes) => {
      told.push(codes);
    });
    const events = await readEntireLog(stack.eventStore);
    await projection.afterCommit?.(events.filter((event) => !event.streamId.startsWith('premiumslug-')));
    expect(told).toEqual([['anns', 'bobs', `owner:${ANN}`, `owner:${BOB}`]]);
  });
});
