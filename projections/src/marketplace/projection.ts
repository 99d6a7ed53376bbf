import { premiumSlugEvents } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction, Updateable } from 'kysely';
import type { CodesChanged } from '../links/projection';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';
import type { PremiumPaymentStatus, RmPremiumSlugsTable } from './tables';

/**
 * The premium catalogue: every slug added and not deleted, with its price, category, tier, availability,
 * hold, owner and what its sale took; and each payment taken for a slug, complete or refunded.
 * Idempotent: a slug's row is inserted once, updated only by an event of a later revision of its stream,
 * and marked deleted for good (a slug re-added after deletion is a new stream and id); a payment's row
 * is inserted once and only ever turns `refunded`.
 */
export const marketplaceProjection: Projection = marketplaceProjectionFor();

/**
 * The same, telling the redirect caches which codes' answers changed once committed: a slug added or
 * deleted (its friendly page, or none), and a target set or removed.
 */
export function marketplaceProjectionFor(onCodesChanged: CodesChanged = async () => {}): Projection {
  return {
    name: 'marketplace',
    version: 2,
    handles: premiumSlugEvents.types,
    tables: ['rm_premium_slugs', 'rm_premium_payments'],
    apply: eachInOrder(applyPremiumSlugEvent),
    async afterCommit(events) {
      const codes = new Set<string>();
      for (const recorded of events) {
        const event = premiumSlugEvents.narrow(recorded);
        if (
          event.type === 'PremiumSlugAdded' ||
          event.type === 'PremiumSlugDeleted' ||
          event.type === 'PremiumSlugTargetSet' ||
          (event.type === 'PremiumSlugPurchaseRefunded' && event.data.slugReleased)
        )
          codes.add(event.data.slug);
      }
      if (codes.size > 0) await onCodesChanged([...codes]);
    },
  };
}

async function applyPremiumSlugEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const at = recorded.occurredAt;
  const revision = recorded.revision.toString();
  const event = premiumSlugEvents.narrow(recorded);
  switch (event.type) {
    case 'PremiumSlugAdded': {
      const { slugId, slug, category, price, tier, isAvailable, stripePriceId } = event.data;
      await trx
        .insertInto('rm_premium_slugs')
        .values({
          slug_id: slugId,
          slug,
          category,
          price,
          tier,
          is_available: isAvailable,
          stripe_price_id: stripePriceId,
          owner_id: null,
          held_until: null,
          payment_id: null,
          deleted_at: null,
          created_at: at,
          updated_at: at,
          last_revision: revision,
        })
        .onConflict((oc) => oc.column('slug_id').doNothing())
        .execute();
      return;
    }
    case 'PremiumSlugEdited': {
      const { slugId, category, price, tier, isAvailable, stripePriceId } = event.data;
      await trx
        .updateTable('rm_premium_slugs')
        .set({
          ...(category === undefined ? {} : { category }),
          ...(price === undefined ? {} : { price }),
          ...(tier === undefined ? {} : { tier }),
          ...(isAvailable === undefined ? {} : { is_available: isAvailable }),
          ...(stripePriceId === undefined ? {} : { stripe_price_id: stripePriceId }),
          updated_at: at,
          last_revision: revision,
        })
        .where('slug_id', '=', slugId)
        .where('last_revision', '<', revision)
        .execute();
      return;
    }
    case 'PremiumSlugDeleted':
      await trx
        .updateTable('rm_premium_slugs')
        .set({ deleted_at: at, updated_at: at, last_revision: revision })
        .where('slug_id', '=', event.data.slugId)
        .where('last_revision', '<', revision)
        .execute();
      return;
    case 'PremiumSlugHeld':
      await update(trx, event.data.slugId, revision, at, { held_until: new Date(event.data.expiresAt) });
      return;
    case 'PremiumSlugHoldReleased':
      await update(trx, event.data.slugId, revision, at, { held_until: null });
      return;
    case 'PremiumSlugPurchased': {
      const { slugId, buyerId, paymentId, amount } = event.data;
      await update(trx, slugId, revision, at, {
        owner_id: buyerId,
        held_until: null,
        payment_id: paymentId,
        paid_cents: amount,
      });
      await recordPayment(trx, event.data, 'complete', at);
      return;
    }
    case 'PremiumSlugTargetSet':
      await update(trx, event.data.slugId, revision, at, { target_url: event.data.url });
      return;
    case 'PremiumSlugPaymentRefunded':
      // The refund changes nothing the catalogue shows (the revision still moves on).
      await update(trx, event.data.slugId, revision, at, {});
      await recordPayment(trx, event.data, 'refunded', at);
      return;
    case 'PremiumSlugPurchaseRefunded': {
      const released = { owner_id: null, payment_id: null, paid_cents: 0, target_url: null };
      await update(trx, event.data.slugId, revision, at, event.data.slugReleased ? released : {});
      await recordPayment(trx, event.data, 'refunded', at);
      return;
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** A payment's row: inserted once, then only turned `refunded` (whichever of the two comes first). */
async function recordPayment(
  trx: Transaction<ReadModelDatabase>,
  payment: { slugId: string; paymentId: string; buyerId: string; amount: number },
  status: PremiumPaymentStatus,
  at: Date,
) {
  const slug = await trx
    .selectFrom('rm_premium_slugs')
    .select('slug')
    .where('slug_id', '=', payment.slugId)
    .executeTakeFirst();
  await trx
    .insertInto('rm_premium_payments')
    .values({
      payment_id: payment.paymentId,
      slug_id: payment.slugId,
      slug: slug?.slug ?? '',
      buyer_id: payment.buyerId,
      amount: payment.amount,
      status,
      updated_at: at,
    })
    .onConflict((oc) =>
      status === 'refunded'
        ? oc.column('payment_id').doUpdateSet({ status, updated_at: at })
        : oc.doNothing(),
    )
    .execute();
}

async function update(
  trx: Transaction<ReadModelDatabase>,
  slugId: string,
  revision: string,
  at: Date,
  changes: Updateable<RmPremiumSlugsTable>,
) {
  await trx
    .updateTable('rm_premium_slugs')
    .set({ ...changes, updated_at: at, last_revision: revision })
    .where('slug_id', '=', slugId)
    .where('last_revision', '<', revision)
    .execute();
}
