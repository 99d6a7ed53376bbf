import { billingCustomerStream, subscriptionClaimStream, userStream } from '@sniplink/contracts';
import { BilledToAnotherUserError, billingClaimDecider, userDecider } from '@sniplink/domain';
import { type Clock, commandHandler, type Database, type EventStore } from '@sniplink/platform';
import { recordedOwnerOfCustomer, recordedOwnerOfSubscription } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import type { PaymentProvider, SubscriptionSnapshot } from './provider';
import { sellingProvider } from './providers/off';

export interface BillingOwnershipDeps {
  eventStore: EventStore;
  /** The billing read model: where bindings recorded before claims existed are found. */
  db: Kysely<Database>;
  payments: Pick<PaymentProvider, 'name'>;
  clock: Clock;
}

/** Who a provider's event is about: one user, several that disagree, or nobody we know. */
export type EventOwner =
  | { kind: 'user'; userId: string }
  | { kind: 'disputed'; userIds: string[] }
  | { kind: 'unknown' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who a provider customer and a subscription belong to. The first user one is applied to claims it on a
 * stream of its own (`billingcustomer-{id}`, `subscription-{id}`, expected revision "no stream"), as a
 * short code is claimed; that user's later claims continue, any other user's are refused.
 */
export class BillingOwnership {
  /**
   * Who a provider customer / subscription belongs to. Appended at the revision read, so of two racing
   * claims the second is refused by the decider on retry.
   */
  private readonly customers;
  private readonly subscriptions;
  /** The account's stream, read only. */
  private readonly users;

  constructor(private readonly deps: BillingOwnershipDeps) {
    this.customers = commandHandler(deps, { decider: billingClaimDecider, stream: billingCustomerStream });
    this.subscriptions = commandHandler(deps, {
      decider: billingClaimDecider,
      stream: subscriptionClaimStream,
    });
    this.users = commandHandler(deps, { decider: userDecider, stream: userStream });
  }

  /**
   * The user an event is for: every user it names (the checkout's `client_reference_id`, the
   * subscription's metadata) and every user its customer and subscription are bound to must be the same
   * one, and an account that exists (not erased).
   */
  async ownerOf(named: readonly (string | null)[], subscription: SubscriptionSnapshot): Promise<EventOwner> {
    const userIds = new Set(
      named.filter((id): id is string => id !== null && UUID.test(id)).map((id) => id.toLowerCase()),
    );
    for (const owner of await this.boundOwners(subscription)) userIds.add(owner);
    if (userIds.size > 1) return { kind: 'disputed', userIds: [...userIds] };
    const [userId] = userIds;
    if (!userId) return { kind: 'unknown' };
    const account = await this.users.load(userId);
    return account.status === 'active' ? { kind: 'user', userId } : { kind: 'unknown' };
  }

  /**
   * Claims the subscription and its customer for `userId`: `BilledToAnotherUserError` if either is
   * another's (the customer first: a subscription is never claimed for a user its customer is not).
   */
  async claimSubscription(userId: string, { id, customerId }: SubscriptionSnapshot): Promise<void> {
    await this.claimCustomer(userId, customerId);
    const owner = await this.ownerOfSubscription(id);
    if (owner !== null && owner !== userId) throw new BilledToAnotherUserError();
    await this.subscriptions.handle(id, {
      type: 'ClaimSubscription',
      subscriptionId: id,
      customerId,
      userId,
    });
  }

  /** Claims the provider customer for `userId`: `BilledToAnotherUserError` if it is another's. */
  async claimCustomer(userId: string, customerId: string): Promise<void> {
    const owner = await this.ownerOfCustomer(customerId);
    if (owner !== null && owner !== userId) throw new BilledToAnotherUserError();
    const provider = sellingProvider(this.deps.payments);
    await this.customers.handle(customerId, {
      type: 'ClaimCustomer',
      provider,
      customerId,
      userId,
    });
  }

  /** The customer's and the subscription's users, where they have one. */
  private async boundOwners({ id, customerId }: SubscriptionSnapshot): Promise<string[]> {
    const owners = await Promise.all([this.ownerOfCustomer(customerId), this.ownerOfSubscription(id)]);
    return owners.filter((owner) => owner !== null);
  }

  /**
   * Its claim's user; before it is claimed, the user a billing stream recorded it on before claims existed
   * (found in the read model), so such a binding stays its first user's.
   */
  private async ownerOfCustomer(customerId: string): Promise<string | null> {
    const claim = await this.customers.load(customerId);
    return claim.owner ?? (await recordedOwnerOfCustomer(this.deps.db, customerId));
  }

  private async ownerOfSubscription(subscriptionId: string): Promise<string | null> {
    const claim = await this.subscriptions.load(subscriptionId);
    return claim.owner ?? (await recordedOwnerOfSubscription(this.deps.db, subscriptionId));
  }
}
