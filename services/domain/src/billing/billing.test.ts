import type { BillingEvent, SubscriptionFacts } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, expect, it } from 'vitest';
import { type BillingCommand, billingDecider, type ProviderSubscription, paidPlanOf } from './billing';

const given = specFor(billingDecider);

const JAN = '2027-01-01T00:00:00.000Z';
const FEB = '2027-02-01T00:00:00.000Z';
const MAR = '2027-03-01T00:00:00.000Z';

/** The subscription as the provider holds it: monthly, active, paid until February. */
const provider = (changes: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
  id: 'sub_1',
  customerId: 'cus_1',
  plan: 'monthly',
  status: 'active',
  currentPeriodEnd: new Date(FEB),
  cancelAtPeriodEnd: false,
  amount: 200,
  currency: 'usd',
  ...changes,
});

const apply = (providerEventId: string, subscription: ProviderSubscription): BillingCommand => ({
  type: 'ApplyProviderSubscription',
  provider: 'stripe',
  providerEventId,
  subscription,
});

/** The facts an event records for the provider's `subscription`, applied for `eventId`. */
const facts = (
  eventId: string,
  { id, currentPeriodEnd, ...rest }: ProviderSubscription,
): SubscriptionFacts => ({
  ...rest,
  providerEventId: eventId,
  subscriptionId: id,
  periodEnd: currentPeriodEnd.toISOString(),
});

const event = (
  type: Exclude<BillingEvent['type'], 'BillingCustomerRecorded'>,
  eventId: string,
  subscription: ProviderSubscription,
): BillingEvent => ({ type, data: facts(eventId, subscription) });

const customer: BillingEvent = {
  type: 'BillingCustomerRecorded',
  data: { provider: 'stripe', customerId: 'cus_1' },
};
const activated = event('SubscriptionActivated', 'evt_paid', provider());

describe('billing decider: the customer', () => {
  it('records the provider customer once; a second (racing) one changes nothing', () => {
    given([]).when({ type: 'RecordCustomer', provider: 'stripe', customerId: 'cus_1' }).then([customer]);
    given([customer]).when({ type: 'RecordCustomer', provider: 'stripe', customerId: 'cus_2' }).then([]);
  });

  it("records the subscription's customer for a user who has none (a subscription made elsewhere)", () => {
    given([]).when(apply('evt_paid', provider())).then([customer, activated]);
  });
});

describe('billing decider: applying what the provider holds', () => {
  it('activates a paid subscription seen for the first time', () => {
    given([customer]).when(apply('evt_paid', provider())).then([activated]);
  });

  it('applies each provider event once: the same event again adds nothing, even if the provider changed since', () => {
    given([customer, activated]).when(apply('evt_paid', provider())).then([]);
    given([customer, activated])
      .when(apply('evt_paid', provider({ cancelAtPeriodEnd: true })))
      .then([]);
  });

  it('adds nothing when another event finds the subscription as it is held', () => {
    given([customer, activated]).when(apply('evt_other', provider())).then([]);
  });

  it('waits for the first payment: an incomplete subscription is not recorded', () => {
    given([])
      .when(apply('evt_created', provider({ status: 'incomplete' })))
      .then([]);
  });

  it('renews when a new period is paid for', () => {
    const renewed = provider({ currentPeriodEnd: new Date(MAR) });
    given([customer, activated])
      .when(apply('evt_invoice_paid', renewed))
      .then([event('SubscriptionRenewed', 'evt_invoice_paid', renewed)]);
  });

  it('records a failed payment, and its recovery', () => {
    const pastDue = provider({ status: 'past_due', currentPeriodEnd: new Date(MAR) });
    const failed = event('PaymentFailed', 'evt_failed', pastDue);
    given([customer, activated]).when(apply('evt_failed', pastDue)).then([failed]);
    const recovered = provider({ currentPeriodEnd: new Date(MAR) });
    given([customer, activated, failed])
      .when(apply('evt_recovered', recovered))
      .then([event('PaymentRecovered', 'evt_recovered', recovered)]);
  });

  it('records a cancellation scheduled for the period end, and its withdrawal', () => {
    const canceling = provider({ cancelAtPeriodEnd: true });
    const scheduled = event('CancellationScheduled', 'evt_cancel', canceling);
    given([customer, activated]).when(apply('evt_cancel', canceling)).then([scheduled]);
    given([customer, activated, scheduled])
      .when(apply('evt_keep', provider()))
      .then([event('CancellationWithdrawn', 'evt_keep', provider())]);
  });

  it('names every change at once: a renewal that is also set to end', () => {
    const both = provider({ currentPeriodEnd: new Date(MAR), cancelAtPeriodEnd: true });
    given([customer, activated])
      .when(apply('evt_both', both))
      .then([
        event('SubscriptionRenewed', 'evt_both', both),
        event('CancellationScheduled', 'evt_both', both),
      ]);
  });

  it('records a change of plan and price as an update', () => {
    const yearly = provider({ plan: 'yearly', amount: 2000 });
    given([customer, activated])
      .when(apply('evt_plan', yearly))
      .then([event('SubscriptionUpdated', 'evt_plan', yearly)]);
  });

  it('ends a subscription the provider canceled', () => {
    const canceled = provider({ status: 'canceled' });
    given([customer, activated])
      .when(apply('evt_deleted', canceled))
      .then([event('SubscriptionCanceled', 'evt_deleted', canceled)]);
  });

  it('ends a subscription ended at once, though its end comes before the period it had', () => {
    const endedNow = provider({ status: 'canceled', currentPeriodEnd: new Date(JAN) });
    given([customer, activated])
      .when(apply('evt_ended_now', endedNow))
      .then([event('SubscriptionCanceled', 'evt_ended_now', endedNow)]);
  });
});

describe('billing decider: events out of order', () => {
  it('updated before completed: the completion finds the state already there', () => {
    const updated = event('SubscriptionActivated', 'evt_updated', provider());
    given([customer, updated]).when(apply('evt_completed', provider())).then([]);
  });

  it('deleted before updated: a later (older) snapshot of a canceled subscription changes nothing', () => {
    const canceled = provider({ status: 'canceled' });
    const deletedFirst = event('SubscriptionCanceled', 'evt_deleted', canceled);
    given([customer]).when(apply('evt_deleted', canceled)).then([deletedFirst]);
    given([customer, deletedFirst]).when(apply('evt_updated', provider())).then([]);
  });

  it('an old updated after deleted changes nothing', () => {
    const deleted = event('SubscriptionCanceled', 'evt_deleted', provider({ status: 'canceled' }));
    given([customer, activated, deleted])
      .when(apply('evt_old_updated', provider({ cancelAtPeriodEnd: true })))
      .then([]);
  });

  it('a snapshot of an earlier period than the one held changes nothing', () => {
    const renewed = event(
      'SubscriptionRenewed',
      'evt_renewed',
      provider({ currentPeriodEnd: new Date(MAR) }),
    );
    given([customer, activated, renewed])
      .when(apply('evt_late_failure', provider({ status: 'past_due', currentPeriodEnd: new Date(FEB) })))
      .then([]);
    given([customer, activated])
      .when(apply('evt_stale', provider({ status: 'incomplete', currentPeriodEnd: new Date(JAN) })))
      .then([]);
  });
});

describe('the mirror the user stream keeps', () => {
  const fold = (events: BillingEvent[]) =>
    events.reduce(billingDecider.evolve, billingDecider.initialState());

  it('holds the subscriptions that have not ended, at the version of the subscription events folded', () => {
    const second = event('SubscriptionActivated', 'evt_second', provider({ id: 'sub_2', plan: 'yearly' }));
    const firstEnded = event('SubscriptionCanceled', 'evt_end', provider({ status: 'canceled' }));
    expect(paidPlanOf(fold([activated, second, firstEnded]))).toEqual({
      version: 3,
      subscriptions: [
        {
          subscriptionId: 'sub_2',
          plan: 'yearly',
          status: 'active',
          periodEnd: FEB,
          cancelAtPeriodEnd: false,
        },
      ],
    });
  });
});
