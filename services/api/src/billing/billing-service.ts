import type { CreateSubscriptionAnswer, PlanId } from '@sniplink/contracts';
import { billingStream, userStream } from '@sniplink/contracts';
import {
  BilledToAnotherUserError,
  type BillingState,
  billingDecider,
  ConflictError,
  isUserProAt,
  paidPlanOf,
  UnauthorizedError,
  userDecider,
} from '@sniplink/domain';
import {
  type Clock,
  commandHandler,
  type Database,
  type EventStore,
  KeyedMutex,
  type Logger,
  type ReadModelWaiter,
} from '@sniplink/platform';
import { billingProjection, paidPlansProjection } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import type { AccountService } from '../accounts/accounts';
import { atProvider } from '../shared/at-provider';
import { BillingOwnership } from './ownership';
import type { PaymentProvider, ProviderEvent, SubscriptionSnapshot } from './provider';
import { sellingProvider } from './providers/off';

export interface BillingServiceDeps {
  eventStore: EventStore;
  /** The billing read model: where customers recorded before billing claims existed are found. */
  db: Kysely<Database>;
  payments: PaymentProvider;
  accounts: Pick<AccountService, 'command' | 'user'>;
  readModels: ReadModelWaiter;
  /** `{PUBLIC_URL}`: the portal returns to `{publicUrl}/profile`. */
  publicUrl: string;
  log: Logger;
  /** Stamps the events appended; says whether the user is Pro now and which checkout window it is. */
  clock: Clock;
}

/** A double click, or a second tab, within this long gets the same checkout (the same idempotency key). */
const CHECKOUT_WINDOW_MS = 5 * 60_000;

const ALREADY_SUBSCRIBED = 'You already have an active subscription';

/**
 * Plans and payments: checkouts and the portal at the payment provider, and the provider's subscriptions
 * applied to the user's billing stream `billing-{userId}`, each provider event once, then mirrored to the
 * user's stream, where the link allowance is decided.
 */
export class BillingService {
  /**
   * One user's billing commands, one at a time in this process (a burst of webhooks resolves in order);
   * the streams' expected revisions stay the guard across processes.
   */
  private readonly perUser = new KeyedMutex();
  /**
   * The user's billing stream. Its answers wait for the billing read model outside the user's turn, and
   * after the user stream's mirror when there is one: each command says when.
   */
  private readonly billing;
  /** The account's stream, read only: its commands go through the accounts. */
  private readonly users;
  private readonly ownership: BillingOwnership;

  constructor(private readonly deps: BillingServiceDeps) {
    this.billing = commandHandler(deps, { decider: billingDecider, stream: billingStream });
    this.users = commandHandler(deps, { decider: userDecider, stream: userStream });
    this.ownership = new BillingOwnership(deps);
  }

  /** A checkout for Pro on `plan`; or, when the user is Pro already, the answer that says so. */
  async startCheckout(userId: string, plan: PlanId): Promise<CreateSubscriptionAnswer> {
    sellingProvider(this.deps.payments);
    const now = this.deps.clock.now();
    const account = await this.users.load(userId);
    if (account.status !== 'active') throw new UnauthorizedError();
    if (isUserProAt(account, now)) return { status: 'active', message: ALREADY_SUBSCRIBED };
    const customerId = await this.ensureCustomer(userId);
    const window = Math.floor(now.getTime() / CHECKOUT_WINDOW_MS);
    const checkout = await this.atProvider(() =>
      this.deps.payments.createCheckout({
        userId,
        customerId,
        plan,
        idempotencyKey: `checkout-${userId}-${plan}-${window}`,
      }),
    );
    return { sessionUrl: checkout.url };
  }

  /** The provider's portal for the user's customer; 409 before the user has one. */
  async openPortal(userId: string): Promise<{ url: string }> {
    sellingProvider(this.deps.payments);
    const customer = (await this.billingState(userId)).customer;
    if (!customer) throw new ConflictError('CONFLICT', 'No billing account yet');
    // A customer recorded before claims existed is claimed on first use; another user's is refused.
    await this.ownership.claimCustomer(userId, customer.customerId);
    return this.atProvider(() =>
      this.deps.payments.createPortal({
        customerId: customer.customerId,
        returnUrl: `${this.deps.publicUrl}/profile`,
      }),
    );
  }

  /**
   * Applies a provider's event about `subscription` to the one user it belongs to. An event naming
   * another user than the one its customer or subscription is bound to (or two users) is refused and
   * logged, and nothing is applied: the provider is still answered 2xx, as a retry would change nothing.
   * Returns how many billing events were appended.
   *
   * The appends, in order: the customer's claim, the subscription's claim, the billing stream, the user
   * stream's mirror. The claims are shown by no read model and are the user's for good, so a failure after
   * them leaves nothing visible and the provider's retry continues them; the billing stream's events are
   * what the read models show, and the mirror is brought up to date from it on every retry.
   */
  async applyProviderEvent(event: ProviderEvent, subscription: SubscriptionSnapshot): Promise<number> {
    const logged = { providerEventId: event.id, type: event.type, subscriptionId: subscription.id };
    const owner = await this.ownership.ownerOf([event.userId, subscription.userId], subscription);
    if (owner.kind === 'unknown') {
      this.deps.log.warn(logged, 'payment event tied to no account we know; nothing applied');
      return 0;
    }
    try {
      if (owner.kind === 'disputed') throw new BilledToAnotherUserError();
      await this.ownership.claimSubscription(owner.userId, subscription);
    } catch (error) {
      if (!(error instanceof BilledToAnotherUserError)) throw error;
      this.deps.log.warn(
        {
          ...logged,
          customerId: subscription.customerId,
          userIds: owner.kind === 'disputed' ? owner.userIds : [owner.userId],
        },
        'payment event binds a customer or subscription to another user than its own; refused, nothing applied',
      );
      return 0;
    }
    return this.applySubscription(owner.userId, event.id, subscription);
  }

  /**
   * Applies the subscription as the provider holds it for the provider's event `providerEventId`: on the
   * billing stream once per event id (a copy, or one of ten delivered at once, adds nothing), then the
   * user stream's mirror. The mirror is brought up to date even when the billing stream had the event
   * already, so a retry after a crash between the two appends completes the second. Returns how many
   * billing events were appended.
   */
  private applySubscription(
    userId: string,
    providerEventId: string,
    subscription: SubscriptionSnapshot,
  ): Promise<number> {
    return this.perUser.run(userId, async () => {
      const applied = await this.billing.handle(userId, {
        type: 'ApplyProviderSubscription',
        provider: sellingProvider(this.deps.payments),
        providerEventId,
        subscription,
      });
      const mirror = paidPlanOf(applied.state);
      const synced =
        mirror.version > 0
          ? await this.deps.accounts.command(userId, { type: 'SyncPaidPlan', ...mirror })
          : null;
      // The user's next look (the success page refreshes the user) finds the new plan.
      if (applied.position) await this.deps.readModels.waitFor(billingProjection, applied.position);
      if (synced?.position) await this.deps.readModels.waitFor(paidPlansProjection, synced.position);
      return applied.events.length;
    });
  }

  private billingState(userId: string): Promise<BillingState> {
    return this.billing.load(userId);
  }

  /**
   * The user's customer at the provider, made and recorded the first time. Two racing checkouts: the
   * provider makes one customer for both (its idempotency key is the user's), and the billing stream
   * keeps the first recorded, which both then use.
   */
  private async ensureCustomer(userId: string): Promise<string> {
    const held = (await this.billingState(userId)).customer;
    if (held) return held.customerId;
    const email = (await this.deps.accounts.user(userId))?.email ?? null;
    const made = await this.atProvider(() => this.deps.payments.ensureCustomer({ userId, email }, null));
    // Claimed before it is recorded: the billing stream only ever records a customer of the user's own.
    await this.ownership.claimCustomer(userId, made);
    const recorded = await this.perUser.run(userId, () =>
      this.billing.handle(userId, {
        type: 'RecordCustomer',
        provider: sellingProvider(this.deps.payments),
        customerId: made,
      }),
    );
    // "Manage billing" is offered from the user's next look.
    if (recorded.position) await this.deps.readModels.waitFor(billingProjection, recorded.position);
    return recorded.state.customer?.customerId ?? made;
  }

  /** A call to the provider; when it fails (down, refused), a 503 the user can retry, never a 500. */
  atProvider<T>(call: () => Promise<T>): Promise<T> {
    return atProvider(this.deps, call);
  }
}
