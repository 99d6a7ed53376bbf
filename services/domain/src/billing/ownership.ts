import { type BillingClaimEvent, billingClaimEvents, type PaymentProviderName } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError } from '../errors';

/** A claim stream's state: the user the customer or subscription belongs to, once claimed. */
export interface BillingClaimState {
  owner: string | null;
}

export type BillingClaimCommand =
  | { type: 'ClaimCustomer'; provider: PaymentProviderName; customerId: string; userId: string }
  | { type: 'ClaimSubscription'; subscriptionId: string; customerId: string; userId: string };

/** The provider's customer or subscription is another user's: nothing is applied to this one. */
export class BilledToAnotherUserError extends ConflictError {
  constructor() {
    super('CONFLICT', 'This billing account belongs to another user');
  }
}

const initialState = (): BillingClaimState => ({ owner: null });

function evolve(state: BillingClaimState, event: BillingClaimEvent): BillingClaimState {
  // The first claim is final: nothing on the stream moves it to another user.
  return state.owner === null ? { owner: event.data.userId } : state;
}

function decide(command: BillingClaimCommand, state: BillingClaimState): BillingClaimEvent[] {
  if (state.owner === command.userId) return []; // a later claim by the owner continues
  if (state.owner !== null) throw new BilledToAnotherUserError();
  switch (command.type) {
    case 'ClaimCustomer': {
      const { provider, customerId, userId } = command;
      return [{ type: 'BillingCustomerClaimed', data: { provider, customerId, userId } }];
    }
    case 'ClaimSubscription': {
      const { subscriptionId, customerId, userId } = command;
      return [{ type: 'SubscriptionClaimed', data: { subscriptionId, customerId, userId } }];
    }
    default:
      return exhaustive(command);
  }
}

/** One provider customer's or one subscription's owner, claimed like a short code (see ./billing.ts). */
export const billingClaimDecider = deciderOf(billingClaimEvents, { initialState, evolve, decide });
