import { defaultSettings, premiumBuyerStream, premiumSlugStream, userStream } from '@sniplink/contracts';
import { createLogger, type Database, sequentialIds } from '@sniplink/platform';
import { commandSpec, on, type SpecWorld } from '@sniplink/test-support/command-spec';
import { events, specIds } from '@sniplink/test-support/events';
import type { Kysely } from 'kysely';
import { describe, it } from 'vitest';
import type { PaymentProvider } from '../billing/provider';
import { PremiumPurchaseService } from './premium-purchase-service';

const { buyer: BUYER, slug: SLUG, hold: OTHER_HOLD } = specIds;
const OTHER = '01890000-0000-7000-8000-00000000a004';
/** The first id the service draws (`sequentialIds`): the new hold's. */
const HOLD = '01890000-0000-7000-8000-000000000001';
const PRICE = 2500;
/** 15 minutes after the specification's clock starts: when a hold taken then expires. */
const HOLD_EXPIRES = '2026-03-01T10:15:00.000Z';

/** The provider, as far as a purchase calls it: a payment per hold, or a failure when it is down. */
function provider(down = false): PaymentProvider {
  const unused = () => {
    throw new Error('not called by a purchase');
  };
  return {
    name: 'local',
    ensureCustomer: unused,
    createCheckout: unused,
    retrieveCheckout: unused,
    createPortal: unused,
    verifyWebhook: unused,
    retrieveSubscription: unused,
    retrievePayment: unused,
    createPayment: async ({ amount, currency, idempotencyKey }) => {
      if (down) throw new Error('provider unreachable');
      return { id: `pay_${idempotencyKey}`, clientSecret: 'secret', amount, currency };
    },
    cancelPayment: async () => {},
    refundPayment: async ({ paymentId }) => ({ refundId: `re_${paymentId}` }),
  };
}

/** The purchase's commands read no read model: a query would fail the specification loudly. */
const noReadModels = new Proxy({} as Kysely<Database>, {
  get: () => {
    throw new Error('a purchase command read a read model');
  },
});

const purchases = (payments: PaymentProvider) =>
  commandSpec(
    (world: SpecWorld) =>
      new PremiumPurchaseService({
        ...world,
        db: noReadModels,
        settings: { current: () => defaultSettings },
        payments,
        log: createLogger('silent'),
        ids: sequentialIds(),
        ownOrigins: ['http://localhost'],
      }),
  );
const spec = purchases(provider());

const registered = events.userRegistered({ userId: BUYER });
const proBuyer = on(userStream, BUYER, registered, events.subscriptionStarted());
const added = events.premiumSlugAdded({ slugId: SLUG, price: PRICE });
const listed = on(premiumSlugStream, SLUG, added);
const claimed = events.premiumBuyerHoldClaimed({
  buyerId: BUYER,
  holdId: HOLD,
  slugId: SLUG,
  expiresAt: HOLD_EXPIRES,
});
const held = events.premiumSlugHeld({
  slugId: SLUG,
  holdId: HOLD,
  buyerId: BUYER,
  price: PRICE,
  expiresAt: HOLD_EXPIRES,
});
/** The buyer's claim on the hold, released for `reason`. */
const claimReleased = (reason: 'not_held' | 'canceled' | 'refunded' | 'payment_failed') =>
  events.premiumBuyerHoldReleased({ buyerId: BUYER, holdId: HOLD, slugId: SLUG, reason });
/** The buyer's payment `pay_1` for the hold, as the provider's event `evt_1` reports it. */
const payment = {
  slugId: SLUG,
  holdId: HOLD,
  buyerId: BUYER,
  paymentId: 'pay_1',
  amount: PRICE,
  currency: 'usd',
  providerEventId: 'evt_1',
};
const paid = (paymentId: string) => ({
  id: paymentId,
  amount: 2500,
  currency: 'usd',
  failureMessage: null,
  metadata: { premiumSlugId: SLUG, premiumHoldId: HOLD, userId: BUYER },
});

describe('buying a premium slug: the buyer and slug streams, and their compensations', () => {
  it('a Pro buyer claims a hold on their stream first, then holds the slug for 15 minutes', async () => {
    await spec
      .given(proBuyer, listed)
      .when((service) => service.startPurchase(BUYER, SLUG))
      .then(on(premiumBuyerStream, BUYER, claimed), on(premiumSlugStream, SLUG, held));
  });

  it('a buyer who is not Pro is refused (403) before anything is claimed', async () => {
    await spec
      .given(on(userStream, BUYER, registered), listed)
      .when((service) => service.startPurchase(BUYER, SLUG))
      .thenFails({ status: 403 });
  });

  it('a slug someone else holds is a 409, and the claim it cost the buyer is released', async () => {
    await spec
      .given(
        proBuyer,
        on(
          premiumSlugStream,
          SLUG,
          added,
          events.premiumSlugHeld({
            slugId: SLUG,
            holdId: OTHER_HOLD,
            buyerId: OTHER,
            price: PRICE,
            expiresAt: HOLD_EXPIRES,
          }),
        ),
      )
      .when((service) => service.startPurchase(BUYER, SLUG))
      .thenFails({ status: 409 }, on(premiumBuyerStream, BUYER, claimed, claimReleased('not_held')));
  });

  it('a provider that cannot make the payment is a 503: the hold and the claim are both released', async () => {
    await purchases(provider(true))
      .given(proBuyer, listed)
      .when((service) => service.startPurchase(BUYER, SLUG))
      .thenFails(
        { status: 503 },
        on(premiumBuyerStream, BUYER, claimed),
        on(
          premiumSlugStream,
          SLUG,
          held,
          events.premiumSlugHoldReleased({ slugId: SLUG, holdId: HOLD, reason: 'canceled' }),
        ),
        on(premiumBuyerStream, BUYER, claimReleased('canceled')),
      );
  });

  it("the provider's success makes the buyer the owner, on the slug's stream and then the buyer's", async () => {
    await spec
      .given(proBuyer, on(premiumSlugStream, SLUG, added, held), on(premiumBuyerStream, BUYER, claimed))
      .when((service) => service.applyPaymentEvent('payment_intent.succeeded', 'evt_1', paid('pay_1')))
      .then(
        on(premiumSlugStream, SLUG, events.premiumSlugPurchased(payment)),
        on(
          premiumBuyerStream,
          BUYER,
          events.premiumBuyerSlugOwned({ buyerId: BUYER, holdId: HOLD, slugId: SLUG }),
        ),
      );
  });

  it('a payment for a slug someone else bought meanwhile is refunded, and the buyer’s claim released', async () => {
    const boughtByOther = events.premiumSlugPurchased({
      ...payment,
      holdId: OTHER_HOLD,
      buyerId: OTHER,
      paymentId: 'pay_0',
    });
    await spec
      .given(
        proBuyer,
        on(premiumSlugStream, SLUG, added, held, boughtByOther),
        on(premiumBuyerStream, BUYER, claimed),
      )
      .when((service) => service.applyPaymentEvent('payment_intent.succeeded', 'evt_1', paid('pay_1')))
      .then(
        on(
          premiumSlugStream,
          SLUG,
          events.premiumSlugPaymentRefunded({
            ...payment,
            refundId: 're_pay_1',
            reason: 'owned',
          }),
        ),
        on(premiumBuyerStream, BUYER, claimReleased('refunded')),
      );
  });

  it("a failed payment releases the slug's hold and the buyer's claim", async () => {
    await spec
      .given(proBuyer, on(premiumSlugStream, SLUG, added, held), on(premiumBuyerStream, BUYER, claimed))
      .when((service) => service.applyPaymentEvent('payment_intent.payment_failed', 'evt_2', paid('pay_1')))
      .then(
        on(
          premiumSlugStream,
          SLUG,
          events.premiumSlugHoldReleased({ slugId: SLUG, holdId: HOLD, reason: 'payment_failed' }),
        ),
        on(premiumBuyerStream, BUYER, claimReleased('payment_failed')),
      );
  });
});
