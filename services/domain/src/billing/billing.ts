import {
  type BillingEvent,
  billingEvents,
  type PaidPeriod,
  type PaymentProviderName,
  type PlanId,
  type ProviderSubscriptionStatus,
  type SubscriptionFacts,
} from '@sniplink/contracts';
import { type Decider, exhaustive } from '../decider';
import { hasEnded, isPaying, isPaymentFailing, type PaidTerms } from './pro';

/** A subscription as the provider holds it now (the payment port's `SubscriptionSnapshot` fits). */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  plan: PlanId;
  status: ProviderSubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  amount: number;
  currency: string;
}

export interface HeldSubscription extends PaidTerms {
  subscriptionId: string;
  customerId: string;
  plan: PlanId;
  amount: number;
  currency: string;
}

/** What the billing stream `billing-{userId}` knows. */
export interface BillingState {
  /** The provider's customer for this user: the first one recorded. */
  customer: { provider: PaymentProviderName; customerId: string } | null;
  /** Every subscription the user has had, by the provider's id; ended ones stay (nothing revives them). */
  subscriptions: Record<string, HeldSubscription>;
  /** Provider events already applied: recorded by the very append that applied each. */
  appliedEventIds: ReadonlySet<string>;
  /** Subscription events folded: the version of the user stream's mirror (`PaidPlanSynced`). */
  version: number;
}

export type BillingCommand =
  | { type: 'RecordCustomer'; provider: PaymentProviderName; customerId: string }
  /**
   * Moves the state to the subscription as the provider holds it, for the provider's event
   * `providerEventId`: exactly once per event id, and never backwards (a snapshot older than the state
   * held changes nothing). A user without a recorded customer gets the subscription's.
   */
  | {
      type: 'ApplyProviderSubscription';
      provider: PaymentProviderName;
      providerEventId: string;
      subscription: ProviderSubscription;
    };

export const initialBillingState = (): BillingState => ({
  customer: null,
  subscriptions: {},
  appliedEventIds: new Set(),
  version: 0,
});

export function evolveBilling(state: BillingState, event: BillingEvent): BillingState {
  if (event.type === 'BillingCustomerRecorded') {
    return state.customer ? state : { ...state, customer: event.data };
  }
  const { providerEventId, periodEnd, ...facts } = event.data;
  const held: HeldSubscription = { ...facts, periodEnd: new Date(periodEnd) };
  return {
    ...state,
    subscriptions: { ...state.subscriptions, [held.subscriptionId]: held },
    appliedEventIds: new Set(state.appliedEventIds).add(providerEventId),
    version: state.version + 1,
  };
}

export function decideBilling(command: BillingCommand, state: BillingState): BillingEvent[] {
  switch (command.type) {
    case 'RecordCustomer':
      return customerFor(state, command.provider, command.customerId);
    case 'ApplyProviderSubscription': {
      const { provider, providerEventId, subscription } = command;
      if (state.appliedEventIds.has(providerEventId)) return [];
      const facts = factsOf(providerEventId, subscription);
      const changes = changesTo(facts, subscription, state.subscriptions[subscription.id]);
      if (changes.length === 0) return [];
      return [
        ...customerFor(state, provider, subscription.customerId),
        ...changes.map((type) => ({ type, data: facts })),
      ];
    }
    default:
      return exhaustive(command);
  }
}

/** The customer, unless the user has one already (the first recorded is kept). */
function customerFor(state: BillingState, provider: PaymentProviderName, customerId: string): BillingEvent[] {
  return state.customer ? [] : [{ type: 'BillingCustomerRecorded', data: { provider, customerId } }];
}

type SubscriptionEventType = Exclude<BillingEvent['type'], 'BillingCustomerRecorded'>;

/** The events that take `held` to the provider's `now`, each named for what changed. */
function changesTo(
  facts: SubscriptionFacts,
  now: ProviderSubscription,
  held: HeldSubscription | undefined,
): SubscriptionEventType[] {
  if (!held) {
    // Seen for the first time. An ended one is still recorded, so that an older snapshot arriving
    // later cannot make it look alive; one not yet paid (incomplete) waits for its payment.
    if (hasEnded(now.status)) return ['SubscriptionCanceled'];
    return isPaying(now.status) || now.status === 'past_due' ? ['SubscriptionActivated'] : [];
  }
  // An ended subscription never comes back. Its end is final whatever period it names (a subscription ended
  // at once, "End the period now", ends before the period it had); otherwise a period never moves back and
  // nothing returns to incomplete.
  if (hasEnded(held.status)) return [];
  if (hasEnded(now.status)) return ['SubscriptionCanceled'];
  if (now.currentPeriodEnd.getTime() < held.periodEnd.getTime() || now.status === 'incomplete') return [];
  const changes: SubscriptionEventType[] = [];
  if (now.currentPeriodEnd.getTime() > held.periodEnd.getTime() && isPaying(now.status))
    changes.push('SubscriptionRenewed');
  if (isPaymentFailing(now.status) && !isPaymentFailing(held.status)) changes.push('PaymentFailed');
  if (isPaying(now.status) && isPaymentFailing(held.status)) changes.push('PaymentRecovered');
  if (now.cancelAtPeriodEnd && !held.cancelAtPeriodEnd) changes.push('CancellationScheduled');
  if (!now.cancelAtPeriodEnd && held.cancelAtPeriodEnd) changes.push('CancellationWithdrawn');
  if (changes.length === 0 && differs(facts, held)) changes.push('SubscriptionUpdated');
  return changes;
}

function differs(facts: SubscriptionFacts, held: HeldSubscription): boolean {
  return (
    facts.customerId !== held.customerId ||
    facts.plan !== held.plan ||
    facts.status !== held.status ||
    facts.periodEnd !== held.periodEnd.toISOString() ||
    facts.amount !== held.amount ||
    facts.currency !== held.currency
  );
}

function factsOf(providerEventId: string, subscription: ProviderSubscription): SubscriptionFacts {
  const { id, currentPeriodEnd, customerId, plan, status, cancelAtPeriodEnd, amount, currency } =
    subscription;
  const periodEnd = currentPeriodEnd.toISOString();
  return {
    providerEventId,
    subscriptionId: id,
    customerId,
    plan,
    status,
    periodEnd,
    cancelAtPeriodEnd,
    amount,
    currency,
  };
}

/**
 * What the user's stream mirrors (`SyncPaidPlan`): the subscriptions that have not ended, at the billing
 * stream's version. The same state always gives the same mirror, so applying it again changes nothing.
 */
export function paidPlanOf(state: BillingState): { version: number; subscriptions: PaidPeriod[] } {
  const subscriptions = Object.values(state.subscriptions)
    .filter((subscription) => !hasEnded(subscription.status))
    .map((subscription) => ({
      subscriptionId: subscription.subscriptionId,
      plan: subscription.plan,
      status: subscription.status,
      periodEnd: subscription.periodEnd.toISOString(),
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    }));
  return { version: state.version, subscriptions };
}

export const billingDecider: Decider<BillingCommand, BillingState, BillingEvent> = {
  events: billingEvents,
  initialState: initialBillingState,
  evolve: evolveBilling,
  decide: decideBilling,
};
