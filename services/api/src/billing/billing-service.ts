import type { CreateSubscriptionAnswer, PlanId } from '@sniplink/contracts';
import {
  type BillingState,
  billingDecider,
  billingStreamId,
  ConflictError,
  DomainError,
  isUserProAt,
  paidPlanOf,
  ServiceUnavailableError,
  UnauthorizedError,
  userDecider,
  userStreamId,
} from '@sniplink/domain';
import {
  type Clock,
  type EventStore,
  type HandleOptions,
  handleCommand,
  KeyedMutex,
  type Logger,
  loadState,
} from '@sniplink/platform';
import type { AccountService, ReadModelWaiter } from '../accounts/accounts';
import type { PaymentProvider, SubscriptionSnapshot } from './provider';

export interface BillingServiceDeps {
  eventStore: EventStore;
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
  private readonly stamped: HandleOptions;

  constructor(private readonly deps: BillingServiceDeps) {
    this.stamped = { clock: deps.clock };
  }

  /** A checkout for Pro on `plan`; or, when the user is Pro already, the answer that says so. */
  async startCheckout(userId: string, plan: PlanId): Promise<CreateSubscriptionAnswer> {
    const now = this.deps.clock.now();
    const account = await loadState(this.deps.eventStore, userStreamId(userId), userDecider);
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
    const customer = (await this.billingState(userId)).customer;
    if (!customer) throw new ConflictError('CONFLICT', 'No billing account yet');
    return this.atProvider(() =>
      this.deps.payments.createPortal({
        customerId: customer.customerId,
        returnUrl: `${this.deps.publicUrl}/profile`,
      }),
    );
  }

  /**
   * Applies the subscription as the provider holds it for the provider's event `providerEventId`: on the
   * billing stream once per event id (a copy, or one of ten delivered at once, adds nothing), then the
   * user stream's mirror. The mirror is brought up to date even when the billing stream had the event
   * already, so a retry after a crash between the two appends completes the second. Returns how many
   * billing events were appended.
   */
  applySubscription(
    userId: string,
    providerEventId: string,
    subscription: SubscriptionSnapshot,
  ): Promise<number> {
    return this.perUser.run(userId, async () => {
      const applied = await handleCommand(
        this.deps.eventStore,
        billingStreamId(userId),
        billingDecider,
        {
          type: 'ApplyProviderSubscription',
          provider: this.deps.payments.name,
          providerEventId,
          subscription,
        },
        this.stamped,
      );
      const mirror = paidPlanOf(applied.state);
      if (mirror.version > 0) await this.deps.accounts.command(userId, { type: 'SyncPaidPlan', ...mirror });
      // The user's next look (the success page refreshes the user) finds the new plan.
      if (applied.position) await this.deps.readModels.waitFor('billing', applied.position);
      return applied.events.length;
    });
  }

  private billingState(userId: string): Promise<BillingState> {
    return loadState(this.deps.eventStore, billingStreamId(userId), billingDecider);
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
    const recorded = await this.perUser.run(userId, () =>
      handleCommand(
        this.deps.eventStore,
        billingStreamId(userId),
        billingDecider,
        { type: 'RecordCustomer', provider: this.deps.payments.name, customerId: made },
        this.stamped,
      ),
    );
    // "Manage billing" is offered from the user's next look.
    if (recorded.position) await this.deps.readModels.waitFor('billing', recorded.position);
    return recorded.state.customer?.customerId ?? made;
  }

  /** A call to the provider; when it fails (down, refused), a 503 the user can retry, never a 500. */
  async atProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.deps.log.warn({ err: error, provider: this.deps.payments.name }, 'payment provider call failed');
      throw new ServiceUnavailableError('The payment provider could not be reached; please try again');
    }
  }
}
