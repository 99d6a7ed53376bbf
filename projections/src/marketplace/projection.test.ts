import type { PremiumSlugEvent } from '@sniplink/contracts';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendHistory, applyInBatches as applyFromLog, snapshot } from '../testing/fixtures';
import { marketplaceProjection } from './projection';
import {
  adminPremiumSlugs,
  availablePremiumSlugs,
  ownedPremiumSlugs,
  premiumPurchaseOf,
  premiumSlugById,
} from './queries';

const DEALS = '01890000-0000-7000-8000-0000000000d1';
const VIP = '01890000-0000-7000-8000-0000000000d2';
const GONE = '01890000-0000-7000-8000-0000000000d3';
const AGAIN = '01890000-0000-7000-8000-0000000000d4';
const SOLD = '01890000-0000-7000-8000-0000000000d5';
const TAKEN_BACK = '01890000-0000-7000-8000-0000000000d6';
const ANN = '01890000-0000-7000-8000-0000000000a1';
const HOLD_1 = '01890000-0000-7000-8000-0000000000e1';
const HOLD_2 = '01890000-0000-7000-8000-0000000000e2';

/** `slugId` bought by Ann with `paymentId`. */
const bought = (slugId: string, holdId: string, paymentId: string): PremiumSlugEvent => ({
  type: 'PremiumSlugPurchased',
  data: {
    slugId,
    holdId,
    buyerId: ANN,
    paymentId,
    amount: 2500,
    currency: 'usd',
    providerEventId: `evt_${paymentId}`,
  },
});

const added = (
  slugId: string,
  slug: string,
  changes: Partial<PremiumSlugEvent['data']> = {},
): PremiumSlugEvent => ({
  type: 'PremiumSlugAdded',
  data: {
    slugId,
    slug,
    price: 2500,
    category: 'commerce',
    tier: 'standard',
    isAvailable: true,
    stripePriceId: null,
    ...changes,
  } as Extract<PremiumSlugEvent, { type: 'PremiumSlugAdded' }>['data'],
});

/** DEALS added and edited; VIP added withdrawn; GONE added and deleted, then its code added again as AGAIN. */
const history: Array<[stream: string, events: PremiumSlugEvent[]]> = [
  [
    `premiumslug-${DEALS}`,
    [
      added(DEALS, 'deals'),
      { type: 'PremiumSlugEdited', data: { slugId: DEALS, price: 4900, tier: 'premium' } },
    ],
  ],
  [`premiumslug-${VIP}`, [added(VIP, 'vip', { category: 'lifestyle-status', isAvailable: false })]],
  [
    `premiumslug-${GONE}`,
    [added(GONE, 'sale'), { type: 'PremiumSlugDeleted', data: { slugId: GONE, slug: 'sale' } }],
  ],
  [`premiumslug-${AGAIN}`, [added(AGAIN, 'sale', { tier: 'ultra' })]],
  [`premiumslug-${SOLD}`, [added(SOLD, 'sold'), bought(SOLD, HOLD_1, 'pi_sold')]],
  [
    `premiumslug-${TAKEN_BACK}`,
    [
      added(TAKEN_BACK, 'back'),
      bought(TAKEN_BACK, HOLD_2, 'pi_back'),
      {
        type: 'PremiumSlugTargetSet',
        data: { slugId: TAKEN_BACK, slug: 'back', ownerId: ANN, url: 'https://example.com/b' },
      },
      {
        type: 'PremiumSlugPurchaseRefunded',
        data: {
          slugId: TAKEN_BACK,
          slug: 'back',
          holdId: HOLD_2,
          buyerId: ANN,
          paymentId: 'pi_back',
          amount: 2500,
          currency: 'usd',
          providerEventId: 'evt_refund',
          slugReleased: true,
        },
      },
    ],
  ],
];

describe('marketplace projection', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    await appendHistory(stack.eventStore, history);
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await applyFromLog(db, stack.eventStore, marketplaceProjection, { batchSize, times });
    return {
      slugs: await snapshot(db, 'rm_premium_slugs', 'slug_id'),
      payments: await snapshot(db, 'rm_premium_payments', 'payment_id'),
    };
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
  });

  it('lists each slug as its last event left it; a deleted one is gone and its code may come back', async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
    expect(await premiumSlugById(db, DEALS)).toMatchObject({ slug: 'deals', price: 4900, tier: 'premium' });
    expect(await premiumSlugById(db, GONE)).toBeNull();
    const page = await adminPremiumSlugs(db, { search: '', page: 1 });
    expect(page.slugs.map((slug) => slug.id)).toEqual([TAKEN_BACK, DEALS, AGAIN, SOLD, VIP]);
    expect(page.stats).toEqual({ total: 5, available: 3, owned: 1, revenue: 2500 });
    expect((await availablePremiumSlugs(db, new Date())).map((slug) => slug.slug)).toEqual([
      'back',
      'deals',
      'sale',
    ]);
  });

  it('keeps each payment complete or refunded; a refund that takes the slug back frees it and its target', async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
    expect(await premiumPurchaseOf(db, ANN, 'pi_sold')).toEqual({
      slugId: SOLD,
      slug: 'sold',
      amount: 2500,
      status: 'complete',
    });
    expect(await premiumPurchaseOf(db, ANN, 'pi_back')).toMatchObject({ slug: 'back', status: 'refunded' });
    expect((await ownedPremiumSlugs(db, ANN)).map((slug) => slug.slug)).toEqual(['sold']);
    expect(await premiumSlugById(db, TAKEN_BACK)).toMatchObject({ slug: 'back' });
  });
});
