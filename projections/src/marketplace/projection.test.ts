import type { PremiumSlugEvent } from '@sniplink/contracts';
import { events, onStream } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
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
const bought = (slugId: string, holdId: string, paymentId: string) =>
  events.premiumSlugPurchased({
    slugId,
    holdId,
    buyerId: ANN,
    paymentId,
    providerEventId: `evt_${paymentId}`,
  });
const added = (slugId: string, slug: string, changes: Partial<PremiumSlugEvent['data']> = {}) =>
  events.premiumSlugAdded({ slugId, slug, ...changes });

describe('marketplace projection', () => {
  const spec = projectionSpec(marketplaceProjection);

  /** DEALS added and edited; VIP added withdrawn; GONE added and deleted, then its code added again as AGAIN. */
  beforeAll(() =>
    spec.given(
      onStream(
        `premiumslug-${DEALS}`,
        added(DEALS, 'deals'),
        events.premiumSlugEdited({ slugId: DEALS, price: 4900, tier: 'premium' }),
      ),
      onStream(`premiumslug-${VIP}`, added(VIP, 'vip', { category: 'lifestyle-status', isAvailable: false })),
      onStream(
        `premiumslug-${GONE}`,
        added(GONE, 'sale'),
        events.premiumSlugDeleted({ slugId: GONE, slug: 'sale' }),
      ),
      onStream(`premiumslug-${AGAIN}`, added(AGAIN, 'sale', { tier: 'ultra' })),
      onStream(`premiumslug-${SOLD}`, added(SOLD, 'sold'), bought(SOLD, HOLD_1, 'pi_sold')),
      onStream(
        `premiumslug-${TAKEN_BACK}`,
        added(TAKEN_BACK, 'back'),
        bought(TAKEN_BACK, HOLD_2, 'pi_back'),
        events.premiumSlugTargetSet({
          slugId: TAKEN_BACK,
          slug: 'back',
          ownerId: ANN,
          url: 'https://example.com/b',
        }),
        events.premiumSlugPurchaseRefunded({
          slugId: TAKEN_BACK,
          slug: 'back',
          holdId: HOLD_2,
          buyerId: ANN,
          paymentId: 'pi_back',
          providerEventId: 'evt_refund',
          slugReleased: true,
        }),
      ),
    ),
  );

  it('lists each slug as its last event left it; a deleted one is gone and its code may come back', async () => {
    const { db } = spec;
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
    const { db } = spec;
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
