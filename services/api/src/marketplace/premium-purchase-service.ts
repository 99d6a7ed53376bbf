import {
  type MarketplaceSlugDetail,
  type OwnedPremiumSlug,
  PREMIUM_HOLD_MINUTES,
  type PremiumCategory,
  type PremiumPaymentIntent,
  type PremiumPurchase,
  type PremiumTier,
  userStream,
} from '@sniplink/contracts';
import {
  activeHold,
  ConflictError,
  checkTargetUrl,
  isUserProAt,
  NotFoundError,
  type PremiumPayment,
  PremiumPaymentNotSellable,
  type PremiumRefundReason,
  type PremiumSlugState,
  ProRequiredError,
  UnauthorizedError,
  type UserState,
  type UserStreamEvent,
  userDecider,
  ValidationError,
} from '@sniplink/domain';
import { type CommandPipeline, commandHandler, type Logger, type LogPosition } from '@sniplink/platform';
import {
  marketplaceProjection,
  ownedPremiumSlugs,
  premiumPurchaseOf,
  premiumSlugForCheckout,
} from '@sniplink/projections';
import { z } from 'zod';
import type { PaymentFacts, PaymentProvider, ProviderPayment } from '../billing/provider';
import { LOCAL_PAY_PATH } from '../billing/providers/local';
import { sellingProvider } from '../billing/providers/off';
import { atProvider } from '../shared/at-provider';
import type { ServiceDeps } from '../shared/service-deps';
import type { Settings } from '../shared/settings';
import { PremiumRefunds, premiumPaymentMetadata } from './premium-refunds';
import { type PremiumBuyers, type PremiumSlugs, premiumBuyers, premiumSlugs } from './premium-streams';

export interface PremiumPurchaseServiceDeps extends ServiceDeps {
  /** `premium.max_owned_slugs`: how many slugs one buyer may own or hold. */
  settings: Settings;
  payments: PaymentProvider;
  /** STRIPE_PUBLISHABLE_KEY, for Stripe's Payment Element in the browser; null with the local provider. */
  publishableKey?: string | null;
  log: Logger;
  /** This site's origins: a slug's target may not be one of its own short links (as a link's). */
  ownOrigins: readonly string[];
}

const HOLD_MS = PREMIUM_HOLD_MINUTES * 60_000;
const CURRENCY = 'usd';
const notFound = () => new NotFoundError('No such premium slug');
const isUuid = (id: string) => z.uuid().safeParse(id).success;

/**
 * Buying a premium slug: a hold on the slug for 15 minutes while the buyer pays, then the
 * provider's events decide. Two streams guard it, each by its expected revision: the buyer's
 * `premiumbuyer-{userId}` (their holds and slugs, against `premium.max_owned_slugs`) is claimed first, then
 * the slug's `premiumslug-{id}` (one active hold). A claim the slug then refuses is released, so a failed
 * start leaves nothing that counts. The provider's success makes the buyer the owner once per payment; a
 * failure or cancel releases the hold; a payment for a slug gone to someone else is refunded.
 */
export class PremiumPurchaseService {
  private readonly slugs: PremiumSlugs;
  private readonly buyers: PremiumBuyers;
  /** The account's stream, read only: whether the buyer is Pro, or suspended when a payment succeeds. */
  private readonly users: Pick<CommandPipeline<unknown, UserState, UserStreamEvent>, 'load'>;
  private readonly refunds: PremiumRefunds;

  constructor(private readonly deps: PremiumPurchaseServiceDeps) {
    this.slugs = premiumSlugs(deps);
    this.buyers = premiumBuyers(deps);
    this.users = commandHandler(deps, { decider: userDecider, stream: userStream });
    this.refunds = new PremiumRefunds({ ...deps, slugs: this.slugs, buyers: this.buyers });
  }

  /** One slug of the catalogue, as the checkout page loads it; 404 for an unknown or deleted one. */
  async slug(slugId: string): Promise<MarketplaceSlugDetail> {
    if (!isUuid(slugId)) throw notFound();
    const row = await premiumSlugForCheckout(this.deps.db, slugId);
    if (!row) throw notFound();
    const held = row.heldUntil !== null && row.heldUntil.getTime() > this.deps.clock.now().getTime();
    return {
      id: row.id,
      slug: row.slug,
      category: row.category as PremiumCategory,
      price: row.price,
      tier: row.tier as PremiumTier,
      available: row.isAvailable && row.ownerId === null,
      held,
    };
  }

  /**
   * Holds the slug for the buyer and makes its payment (`premium-hold-{holdId}` is its idempotency key):
   * 403 for a buyer who is not Pro, 409 at the limit (with the count), 409 when the slug is owned or
   * someone else holds it. A buyer who holds it already gets the same payment again.
   */
  async startPurchase(userId: string, slugId: string): Promise<PremiumPaymentIntent> {
    sellingProvider(this.deps.payments);
    if (!isUuid(slugId)) throw notFound();
    const now = this.deps.clock.now();
    const account = await this.users.load(userId);
    if (account.status !== 'active') throw new UnauthorizedError();
    if (!isUserProAt(account, now)) throw new ProRequiredError();

    const slug = await this.slugs.load(slugId);
    if (slug.status !== 'listed') throw notFound();
    const own = activeHold(slug, now);
    if (own?.buyerId === userId && slug.ownerId === null)
      return this.paymentFor(slugId, slug.slug ?? '', own);

    const holdId = this.deps.ids.newId();
    const expiresAt = new Date(now.getTime() + HOLD_MS);
    await this.buyers.handle(userId, {
      type: 'ClaimPremiumHold',
      buyerId: userId,
      holdId,
      slugId,
      expiresAt,
      now,
      max: this.deps.settings.current().maxOwnedPremiumSlugs,
    });
    let held: PremiumSlugState;
    let position: LogPosition | null;
    try {
      // Waited for below, once the payment is made: a hold whose payment fails is released at once.
      ({ state: held, position } = await this.slugs.handle(
        slugId,
        { type: 'HoldPremiumSlug', slugId, holdId, buyerId: userId, now, expiresAt },
        { wait: false },
      ));
    } catch (error) {
      await this.releaseClaim(userId, holdId, slugId, 'not_held');
      throw error;
    }
    const hold = held.hold;
    if (!hold || hold.buyerId !== userId)
      throw new ConflictError('CONFLICT', 'This premium slug is not for sale');
    // The buyer held it already (a second tab at the same moment): that hold is the one paid with.
    if (hold.holdId !== holdId) await this.releaseClaim(userId, holdId, slugId, 'not_held');
    try {
      const answer = await this.paymentFor(slugId, held.slug ?? '', hold);
      // The marketplace stops offering it from the buyer's next look.
      if (position) await this.deps.readModels.waitFor(marketplaceProjection, position);
      return answer;
    } catch (error) {
      if (hold.holdId === holdId) {
        await this.releaseHold(slugId, holdId, 'canceled');
        await this.releaseClaim(userId, holdId, slugId, 'canceled');
      }
      throw error;
    }
  }

  /** The slugs the user owns, by slug (kept whatever their plan is now). */
  owned(userId: string): Promise<OwnedPremiumSlug[]> {
    return ownedPremiumSlugs(this.deps.db, userId);
  }

  /**
   * The owner sets where `/s/{slug}` redirects (the links' URL rules), or removes it (null or blank).
   * A slug the caller does not own is a 404; their plan is not asked (owners keep their slugs).
   */
  async setTarget(userId: string, slug: string, rawUrl: string | null): Promise<OwnedPremiumSlug> {
    const mine = async () =>
      (await this.owned(userId)).find((owned) => owned.slug === slug.trim().toLowerCase());
    const owned = await mine();
    if (!owned) throw notFound();
    const url = rawUrl === null || rawUrl.trim() === '' ? null : this.checkedUrl(rawUrl);
    await this.slugs.handle(owned.id, {
      type: 'SetPremiumSlugTarget',
      slugId: owned.id,
      ownerId: userId,
      url,
    });
    return (await mine()) ?? owned;
  }

  private checkedUrl(raw: string): string {
    try {
      return checkTargetUrl(raw, this.deps.ownOrigins);
    } catch (error) {
      // The links' rules name their own field; here the body's is `url`.
      if (error instanceof ValidationError) throw new ValidationError(error.message, 'url', error.code);
      throw error;
    }
  }

  /**
   * The success page's purchase: the buyer's own, `complete` once the provider's event made them the
   * owner, `refunded` once the payment was given back; before either, given the slug, `processing`.
   */
  async purchase(userId: string, paymentId: string, slug: string | undefined): Promise<PremiumPurchase> {
    const taken = await premiumPurchaseOf(this.deps.db, userId, paymentId);
    if (taken) return { ...taken, paymentIntentId: paymentId };
    if (!slug) throw new NotFoundError('No such purchase');
    return { slugId: '', slug, paymentIntentId: paymentId, amount: 0, status: 'processing' };
  }

  /**
   * A `payment_intent.*` or `charge.refunded` event of the provider's. Events of payments that are not a
   * premium slug's are ignored. Applying one again (a copy, a retry) changes nothing: the slug settles
   * each payment once.
   */
  async applyPaymentEvent(type: string, providerEventId: string, facts: PaymentFacts): Promise<void> {
    if (type === 'charge.refunded') {
      await this.refunds.apply(providerEventId, facts.id);
      return;
    }
    const parsed = premiumPaymentMetadata.safeParse(facts.metadata);
    if (!parsed.success) return;
    const { premiumSlugId: slugId, premiumHoldId: holdId, userId: buyerId } = parsed.data;
    if (type === 'payment_intent.succeeded') {
      const payment: PremiumPayment = {
        holdId,
        buyerId,
        paymentId: facts.id,
        amount: facts.amount,
        currency: facts.currency,
        providerEventId,
      };
      await this.complete(slugId, payment);
      return;
    }
    const reason = type === 'payment_intent.canceled' ? 'canceled' : 'payment_failed';
    await this.releaseHold(slugId, holdId, reason);
    await this.releaseClaim(buyerId, holdId, slugId, reason);
  }

  /**
   * Ends a suspended buyer's open purchases: each payment is cancelled at the provider and its hold and
   * claim released. Never throws: the suspension stands whatever happens here, and a payment that goes
   * through all the same is refunded (`complete` asks whether the buyer is suspended).
   */
  async cancelOpenPurchases(buyerId: string): Promise<void> {
    const failed = (error: unknown) =>
      this.deps.log.warn(
        { err: error, buyerId },
        'cancelling a suspended buyer’s premium payment failed; its hold expires by itself and a payment is refunded',
      );
    const buyer = await this.buyers.load(buyerId).catch(failed);
    for (const [holdId, { slugId }] of buyer?.holds ?? []) {
      await this.cancelOpenPurchase(buyerId, holdId, slugId).catch(failed);
    }
  }

  private async cancelOpenPurchase(buyerId: string, holdId: string, slugId: string): Promise<void> {
    const slug = await this.slugs.load(slugId);
    if (slug.hold?.holdId === holdId) {
      // The hold's payment is found again by its idempotency key, as a second tab finds it.
      const payment = await this.providerPayment(slugId, slug.slug ?? '', slug.hold);
      await this.deps.payments.cancelPayment({ paymentId: payment.id });
      await this.releaseHold(slugId, holdId, 'canceled');
    }
    await this.releaseClaim(buyerId, holdId, slugId, 'canceled');
  }

  private async complete(slugId: string, payment: PremiumPayment): Promise<void> {
    const now = this.deps.clock.now();
    const buyer = await this.users.load(payment.buyerId);
    try {
      // Waited for below, once the buyer's stream records the slug too.
      const done = await this.slugs.handle(
        slugId,
        { type: 'CompletePremiumPurchase', slugId, payment, now, buyerSuspended: buyer.suspended },
        { wait: false },
      );
      const state = done.state;
      if (state.ownerId === payment.buyerId && state.ownerHoldId === payment.holdId) {
        // Also when the slug had it already: a retry after a crash between the two appends completes this one.
        await this.buyers.handle(payment.buyerId, {
          type: 'RecordPremiumSlugOwned',
          buyerId: payment.buyerId,
          holdId: payment.holdId,
          slugId,
        });
      }
      if (done.position) await this.deps.readModels.waitFor(marketplaceProjection, done.position);
    } catch (error) {
      if (!(error instanceof PremiumPaymentNotSellable)) throw error;
      await this.refund(slugId, payment, error.reason);
    }
  }

  /** A payment that cannot buy the slug: refunded at the provider (once, by its key), then recorded. */
  private async refund(slugId: string, payment: PremiumPayment, reason: PremiumRefundReason): Promise<void> {
    const { refundId } = await this.deps.payments.refundPayment({
      paymentId: payment.paymentId,
      idempotencyKey: `premium-refund-${payment.paymentId}`,
      metadata: { premiumSlugId: slugId, premiumHoldId: payment.holdId, userId: payment.buyerId, reason },
    });
    this.deps.log.info(
      { slugId, paymentId: payment.paymentId, refundId, reason },
      'premium slug payment refunded: the slug was no longer the payer’s to have',
    );
    // Waited for below, once the buyer's claim is released too.
    const recorded = await this.slugs.handle(
      slugId,
      { type: 'RecordPremiumRefund', slugId, payment, refundId, reason },
      { wait: false },
    );
    await this.releaseClaim(payment.buyerId, payment.holdId, slugId, 'refunded');
    // The buyer's success page, asking again, finds the payment refunded.
    if (recorded.position) await this.deps.readModels.waitFor(marketplaceProjection, recorded.position);
  }

  private async paymentFor(
    slugId: string,
    slug: string,
    hold: { holdId: string; buyerId: string; price: number; expiresAt: Date },
  ): Promise<PremiumPaymentIntent> {
    const { payments } = this.deps;
    const payment = await this.atProvider(() => this.providerPayment(slugId, slug, hold));
    return {
      clientSecret: payment.clientSecret,
      paymentIntentId: payment.id,
      holdId: hold.holdId,
      holdExpiresAt: hold.expiresAt.toISOString(),
      slug,
      amount: payment.amount,
      currency: payment.currency,
      provider: sellingProvider(payments),
      publishableKey: payments.name === 'stripe' ? (this.deps.publishableKey ?? null) : null,
      confirmUrl:
        payments.name === 'local'
          ? `${LOCAL_PAY_PATH}/payments/${encodeURIComponent(payment.id)}/confirm`
          : null,
    };
  }

  /** The hold's payment at the provider: made once, then the same one again (`premium-hold-{holdId}`). */
  private providerPayment(
    slugId: string,
    slug: string,
    hold: { holdId: string; buyerId: string; price: number },
  ): Promise<ProviderPayment> {
    return this.deps.payments.createPayment({
      amount: hold.price,
      currency: CURRENCY,
      description: `Premium slug "${slug}"`,
      metadata: { premiumSlugId: slugId, premiumHoldId: hold.holdId, userId: hold.buyerId, slug },
      idempotencyKey: `premium-hold-${hold.holdId}`,
    });
  }

  private async releaseHold(
    slugId: string,
    holdId: string,
    reason: 'payment_failed' | 'canceled',
  ): Promise<void> {
    await this.slugs.handle(slugId, { type: 'ReleasePremiumHold', slugId, holdId, reason });
  }

  private async releaseClaim(
    buyerId: string,
    holdId: string,
    slugId: string,
    reason: 'payment_failed' | 'canceled' | 'not_held' | 'refunded',
  ): Promise<void> {
    await this.buyers.handle(buyerId, { type: 'ReleasePremiumClaim', buyerId, holdId, slugId, reason });
  }

  /** A call to the provider; when it fails, a 503 the buyer can retry ("Payment Setup Failed"). */
  private atProvider<T>(call: () => Promise<T>): Promise<T> {
    return atProvider(this.deps, call);
  }
}
