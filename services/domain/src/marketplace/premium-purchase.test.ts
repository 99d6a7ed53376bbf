import type { PremiumBuyerEvent, PremiumSlugEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { premiumBuyerDecider } from './premium-buyer';
import { type PremiumPayment, premiumSlugDecider } from './premium-slug';

const given = specFor(premiumSlugDecider);
const givenBuyer = specFor(premiumBuyerDecider);

const SLUG = '01890000-0000-7000-8000-0000000000b1';
const ANN = '01890000-0000-7000-8000-0000000000a1';
const BOB = '01890000-0000-7000-8000-0000000000a2';
const HOLD_1 = '01890000-0000-7000-8000-0000000000d1';
const HOLD_2 = '01890000-0000-7000-8000-0000000000d2';
const T0 = new Date('2030-05-01T10:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

const added: PremiumSlugEvent = {
  type: 'PremiumSlugAdded',
  data: {
    slugId: SLUG,
    slug: 'deals',
    price: 2500,
    category: 'common-words',
    tier: 'standard',
    isAvailable: true,
    stripePriceId: null,
  },
};
const held = (holdId: string, buyerId: string, expiresAt = minutes(15)): PremiumSlugEvent => ({
  type: 'PremiumSlugHeld',
  data: { slugId: SLUG, holdId, buyerId, price: 2500, expiresAt: expiresAt.toISOString() },
});
const hold = (holdId: string, buyerId: string, now: Date) =>
  ({
    type: 'HoldPremiumSlug',
    slugId: SLUG,
    holdId,
    buyerId,
    now,
    expiresAt: minutes(15 + (now.getTime() - T0.getTime()) / 60_000),
  }) as const;
const payment = (holdId: string, buyerId: string, paymentId: string): PremiumPayment => ({
  holdId,
  buyerId,
  paymentId,
  amount: 2500,
  currency: 'usd',
  providerEventId: `evt_${paymentId}`,
});
/** The payment provider's success for `p`, applied at `now`. */
const complete = (p: PremiumPayment, now: Date, buyerSuspended = false) =>
  ({ type: 'CompletePremiumPurchase', slugId: SLUG, payment: p, now, buyerSuspended }) as const;
const purchased = (p: PremiumPayment): PremiumSlugEvent => ({
  type: 'PremiumSlugPurchased',
  data: { slugId: SLUG, ...p },
});

describe('holding and buying a premium slug', () => {
  it('holds a listed slug for 15 minutes for its price', () => {
    given([added])
      .when(hold(HOLD_1, ANN, T0))
      .then([held(HOLD_1, ANN)]);
  });

  it('refuses a second buyer while the hold runs, and answers the holder nothing new', () => {
    given([added, held(HOLD_1, ANN)])
      .when(hold(HOLD_2, BOB, minutes(14)))
      .thenThrows({ status: 409 });
    given([added, held(HOLD_1, ANN)])
      .when(hold(HOLD_2, ANN, minutes(1)))
      .then([]);
  });

  it('an expired hold releases the slug by itself: the next buyer holds it, the release recorded', () => {
    given([added, held(HOLD_1, ANN)])
      .when(hold(HOLD_2, BOB, minutes(16)))
      .then([
        { type: 'PremiumSlugHoldReleased', data: { slugId: SLUG, holdId: HOLD_1, reason: 'expired' } },
        held(HOLD_2, BOB, minutes(31)),
      ]);
  });

  it('refuses to hold a slug bought, withdrawn or deleted', () => {
    const bought = purchased(payment(HOLD_1, ANN, 'pi_1'));
    given([added, held(HOLD_1, ANN), bought])
      .when(hold(HOLD_2, BOB, T0))
      .thenThrows({ status: 409 });
    given([added, { type: 'PremiumSlugEdited', data: { slugId: SLUG, isAvailable: false } }])
      .when(hold(HOLD_2, BOB, T0))
      .thenThrows({ status: 409 });
    given([added, { type: 'PremiumSlugDeleted', data: { slugId: SLUG, slug: 'deals' } }])
      .when(hold(HOLD_2, BOB, T0))
      .thenThrows({ status: 404 });
  });

  it('a payment makes its buyer the owner once; the same payment again adds nothing', () => {
    const paid = payment(HOLD_1, ANN, 'pi_1');
    given([added, held(HOLD_1, ANN)])
      .when(complete(paid, minutes(5)))
      .then([purchased(paid)]);
    given([added, held(HOLD_1, ANN), purchased(paid)])
      .when(complete(paid, minutes(5)))
      .then([]);
  });

  it('a payment after its hold expired still buys a slug nobody took meanwhile', () => {
    const paid = payment(HOLD_1, ANN, 'pi_1');
    given([added, held(HOLD_1, ANN)])
      .when(complete(paid, minutes(40)))
      .then([purchased(paid)]);
  });

  it('a payment for a slug sold or held by another is not sellable: refunded, and the refund recorded once', () => {
    const late = payment(HOLD_1, ANN, 'pi_late');
    const sold = [
      added,
      held(HOLD_1, ANN),
      held(HOLD_2, BOB, minutes(31)),
      purchased(payment(HOLD_2, BOB, 'pi_2')),
    ];
    given(sold)
      .when(complete(late, minutes(20)))
      .thenThrows({ name: 'PremiumPaymentNotSellable', reason: 'owned' });
    given([added, held(HOLD_1, ANN), held(HOLD_2, BOB, minutes(31))])
      .when(complete(late, minutes(20)))
      .thenThrows({ reason: 'held' });
    const refund = {
      type: 'RecordPremiumRefund',
      slugId: SLUG,
      payment: late,
      refundId: 're_1',
      reason: 'owned',
    } as const;
    const refunded: PremiumSlugEvent = {
      type: 'PremiumSlugPaymentRefunded',
      data: { slugId: SLUG, ...late, refundId: 're_1', reason: 'owned' },
    };
    given(sold).when(refund).then([refunded]);
    given([...sold, refunded])
      .when(refund)
      .then([]);
    given([...sold, refunded])
      .when(complete(late, minutes(20)))
      .then([]);
  });

  it("a suspended buyer's payment buys nothing, even on its own hold; one settled before is not refunded", () => {
    const paid = payment(HOLD_1, ANN, 'pi_1');
    given([added, held(HOLD_1, ANN)])
      .when(complete(paid, minutes(5), true))
      .thenThrows({ name: 'PremiumPaymentNotSellable', reason: 'suspended' });
    given([added, held(HOLD_1, ANN), purchased(paid)])
      .when(complete(paid, minutes(5), true))
      .then([]);
  });

  it('a failure or cancel releases its own hold only', () => {
    given([added, held(HOLD_1, ANN)])
      .when({ type: 'ReleasePremiumHold', slugId: SLUG, holdId: HOLD_1, reason: 'payment_failed' })
      .then([
        { type: 'PremiumSlugHoldReleased', data: { slugId: SLUG, holdId: HOLD_1, reason: 'payment_failed' } },
      ]);
    given([added, held(HOLD_2, BOB)])
      .when({ type: 'ReleasePremiumHold', slugId: SLUG, holdId: HOLD_1, reason: 'canceled' })
      .then([]);
  });
});

describe('a refund made at the provider', () => {
  const bought = payment(HOLD_1, ANN, 'pi_1');
  const recordRefund = (p: PremiumPayment) =>
    ({ type: 'RecordPremiumPurchaseRefund', slugId: SLUG, payment: p }) as const;
  const refundedAtProvider = (p: PremiumPayment, slugReleased: boolean): PremiumSlugEvent => ({
    type: 'PremiumSlugPurchaseRefunded',
    data: { slugId: SLUG, slug: 'deals', ...p, slugReleased },
  });
  const targetSet: PremiumSlugEvent = {
    type: 'PremiumSlugTargetSet',
    data: { slugId: SLUG, slug: 'deals', ownerId: ANN, url: 'https://example.com/deal' },
  };

  it('takes back the slug the payment bought, once: the next buyer may hold it, the old owner no longer set its target', () => {
    const owned = [added, held(HOLD_1, ANN), purchased(bought), targetSet];
    given(owned)
      .when(recordRefund(bought))
      .then([refundedAtProvider(bought, true)]);
    const refunded = [...owned, refundedAtProvider(bought, true)];
    given(refunded).when(recordRefund(bought)).then([]);
    given(refunded)
      .when(hold(HOLD_2, BOB, minutes(1)))
      .then([held(HOLD_2, BOB, minutes(16))]);
    given(refunded)
      .when({ type: 'SetPremiumSlugTarget', slugId: SLUG, ownerId: ANN, url: null })
      .thenThrows({ status: 404 });
  });

  it('a payment refunded before its success is applied never buys the slug, and its hold ends', () => {
    given([added, held(HOLD_1, ANN)])
      .when(recordRefund(bought))
      .then([refundedAtProvider(bought, false)]);
    const refunded = [added, held(HOLD_1, ANN), refundedAtProvider(bought, false)];
    given(refunded)
      .when(complete(bought, minutes(1)))
      .then([]);
    given(refunded)
      .when(hold(HOLD_2, BOB, minutes(1)))
      .then([held(HOLD_2, BOB, minutes(16))]);
  });

  it('a refund of ours already recorded adds nothing; a refund of another payment leaves the owner be', () => {
    const late = payment(HOLD_2, BOB, 'pi_late');
    const ours: PremiumSlugEvent = {
      type: 'PremiumSlugPaymentRefunded',
      data: { slugId: SLUG, ...late, refundId: 're_1', reason: 'owned' },
    };
    const owned = [added, held(HOLD_1, ANN), purchased(bought)];
    given([...owned, ours])
      .when(recordRefund(late))
      .then([]);
    given(owned)
      .when(recordRefund(late))
      .then([refundedAtProvider(late, false)]);
  });

  it("returns the slug on the buyer's stream once, so it no longer counts", () => {
    const buyer = { buyerId: ANN, holdId: HOLD_1, slugId: SLUG };
    const ownedEvent: PremiumBuyerEvent = { type: 'PremiumBuyerSlugOwned', data: buyer };
    const returned: PremiumBuyerEvent = { type: 'PremiumBuyerSlugReturned', data: buyer };
    givenBuyer([ownedEvent])
      .when({ type: 'ReturnPremiumSlug', ...buyer })
      .then([returned]);
    givenBuyer([ownedEvent, returned])
      .when({ type: 'ReturnPremiumSlug', ...buyer })
      .then([]);
  });
});

describe("a buyer's limit", () => {
  const claim = (holdId: string, slugId: string, now = T0) =>
    ({
      type: 'ClaimPremiumHold',
      buyerId: ANN,
      holdId,
      slugId,
      expiresAt: minutes(15),
      now,
      max: 3,
    }) as const;
  const claimed = (holdId: string, slugId: string): PremiumBuyerEvent => ({
    type: 'PremiumBuyerHoldClaimed',
    data: { buyerId: ANN, holdId, slugId, expiresAt: minutes(15).toISOString() },
  });
  const owned = (holdId: string, slugId: string): PremiumBuyerEvent => ({
    type: 'PremiumBuyerSlugOwned',
    data: { buyerId: ANN, holdId, slugId },
  });
  const ids = (n: number) => `01890000-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`;

  it('counts slugs owned and held: at 3, a fourth is refused with the count', () => {
    const three = [owned(ids(1), ids(11)), owned(ids(2), ids(12)), claimed(ids(3), ids(13))];
    givenBuyer(three)
      .when(claim(ids(4), ids(14)))
      .thenThrows({ status: 409, details: { currentCount: 3 } });
  });

  it('an expired or released hold no longer counts', () => {
    const two = [owned(ids(1), ids(11)), owned(ids(2), ids(12))];
    givenBuyer([...two, claimed(ids(3), ids(13))])
      .when(claim(ids(4), ids(14), minutes(16)))
      .then([{ ...claimed(ids(4), ids(14)) }]);
    givenBuyer([
      ...two,
      claimed(ids(3), ids(13)),
      {
        type: 'PremiumBuyerHoldReleased',
        data: { buyerId: ANN, holdId: ids(3), slugId: ids(13), reason: 'canceled' },
      },
    ])
      .when(claim(ids(4), ids(14)))
      .then([claimed(ids(4), ids(14))]);
  });

  it('a second claim for a slug already claimed takes no second place', () => {
    const three = [owned(ids(1), ids(11)), owned(ids(2), ids(12)), claimed(ids(3), ids(13))];
    givenBuyer(three)
      .when(claim(ids(4), ids(13)))
      .then([claimed(ids(4), ids(13))]);
  });
});
