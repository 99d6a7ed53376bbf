import {
  type PremiumPayment,
  premiumBuyerDecider,
  premiumBuyerStreamId,
  premiumSlugDecider,
  premiumSlugStreamId,
} from '@sniplink/domain';
import { type EventStore, type HandleOptions, handleCommand, type Logger } from '@sniplink/platform';
import { marketplaceProjection } from '@sniplink/projections';
import { z } from 'zod';
import type { ReadModelWaiter } from '../accounts/accounts';
import type { PaymentProvider } from '../billing/provider';
import { atProvider } from '../shared/at-provider';

/** The metadata a slug's payment carries, which its webhook events and the provider's answers bring back. */
export const premiumPaymentMetadata = z.object({
  premiumSlugId: z.uuid(),
  premiumHoldId: z.uuid(),
  userId: z.uuid(),
});

export interface PremiumRefundsDeps {
  eventStore: EventStore;
  readModels: ReadModelWaiter;
  payments: PaymentProvider;
  log: Logger;
  stamped: HandleOptions;
}

/**
 * Refunds the provider reports (`charge.refunded`): made by us (a payment for a slug gone to someone
 * else) or by the operator in the provider's dashboard. The payment is re-read from the provider, which
 * decides: refunded in full, the payment buys nothing from then on and, when it bought the slug, the slug
 * goes back to the catalogue (its target removed), as a link shortener takes back a refunded paid
 * domain. A partial refund is a goodwill gesture: the slug stays its buyer's.
 */
export class PremiumRefunds {
  constructor(private readonly deps: PremiumRefundsDeps) {}

  async apply(providerEventId: string, paymentId: string): Promise<void> {
    const { payments, log } = this.deps;
    const payment = await atProvider(this.deps, () => payments.retrievePayment(paymentId));
    if (!payment) {
      log.warn(
        { providerEventId, paymentId },
        'refund of a payment the provider does not know; nothing applied',
      );
      return;
    }
    const metadata = premiumPaymentMetadata.safeParse(payment.metadata);
    if (!metadata.success) return;
    if (!payment.refunded) {
      log.info(
        { providerEventId, paymentId },
        'premium slug payment refunded in part: the slug stays its buyer’s',
      );
      return;
    }
    const { premiumSlugId: slugId, premiumHoldId: holdId, userId: buyerId } = metadata.data;
    const { amount, currency } = payment;
    await this.record(slugId, { holdId, buyerId, paymentId, amount, currency, providerEventId });
  }

  /**
   * The refund on the slug's stream (once per payment), then on the buyer's: the slug or the hold no
   * longer counts towards their limit. The buyer's follows also when the slug had the refund already, so
   * a retry after a crash between the appends completes it.
   */
  private async record(slugId: string, payment: PremiumPayment): Promise<void> {
    const { eventStore, stamped } = this.deps;
    const recorded = await handleCommand(
      eventStore,
      premiumSlugStreamId(slugId),
      premiumSlugDecider,
      { type: 'RecordPremiumPurchaseRefund', slugId, payment },
      stamped,
    );
    const { buyerId, holdId } = payment;
    const buyer = { buyerId, holdId, slugId };
    for (const command of [
      { type: 'ReturnPremiumSlug', ...buyer } as const,
      { type: 'ReleasePremiumClaim', ...buyer, reason: 'refunded' } as const,
    ])
      await handleCommand(eventStore, premiumBuyerStreamId(buyerId), premiumBuyerDecider, command, stamped);
    if (recorded.events.length > 0) {
      this.deps.log.info(
        { slugId, paymentId: payment.paymentId, providerEventId: payment.providerEventId },
        'premium slug payment refunded at the provider: recorded, and a slug it bought released',
      );
    }
    // The success page and the marketplace show it from the buyer's next look.
    if (recorded.position) await this.deps.readModels.waitFor(marketplaceProjection.name, recorded.position);
  }
}
