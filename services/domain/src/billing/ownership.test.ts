import type { BillingClaimEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { billingClaimDecider } from './ownership';

const given = specFor(billingClaimDecider);

const ALICE = '01890000-0000-7000-8000-0000000000a1';
const BOB = '01890000-0000-7000-8000-0000000000b0';

const customerClaimed = (userId: string): BillingClaimEvent => ({
  type: 'BillingCustomerClaimed',
  data: { provider: 'stripe', customerId: 'cus_alice', userId },
});
const subscriptionClaimed = (userId: string): BillingClaimEvent => ({
  type: 'SubscriptionClaimed',
  data: { subscriptionId: 'sub_alice', customerId: 'cus_alice', userId },
});
const refused = { name: 'BilledToAnotherUserError', status: 409, code: 'CONFLICT' };
const claimCustomer = (userId: string) =>
  ({ type: 'ClaimCustomer', provider: 'stripe', customerId: 'cus_alice', userId }) as const;
const claimSubscription = (userId: string) =>
  ({ type: 'ClaimSubscription', subscriptionId: 'sub_alice', customerId: 'cus_alice', userId }) as const;

describe('billing claims: a customer and a subscription belong to one user for good', () => {
  it('claims an unclaimed customer or subscription for the first user it is applied to', () => {
    given([])
      .when(claimCustomer(ALICE))
      .then([customerClaimed(ALICE)]);
    given([])
      .when(claimSubscription(ALICE))
      .then([subscriptionClaimed(ALICE)]);
  });

  it("continues the owner's later claims without a new event", () => {
    given([customerClaimed(ALICE)])
      .when(claimCustomer(ALICE))
      .then([]);
    given([subscriptionClaimed(ALICE)])
      .when(claimSubscription(ALICE))
      .then([]);
  });

  it("refuses to bind another user's customer or subscription", () => {
    given([customerClaimed(ALICE)])
      .when(claimCustomer(BOB))
      .thenThrows(refused);
    given([subscriptionClaimed(ALICE)])
      .when(claimSubscription(BOB))
      .thenThrows(refused);
  });
});
