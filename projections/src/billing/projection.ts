import { billingEvents, billingStream } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/**
 * The billing read model: each user's provider customer, and every subscription as its last event left
 * it (each subscription event carries the whole subscription). Idempotent: a customer is recorded once,
 * and a subscription row is only overwritten by an event of a later revision of its billing stream.
 */
export const billingProjection: Projection = {
  name: 'billing',
  version: 1,
  handles: billingEvents.types,
  tables: ['rm_billing_customers', 'rm_billing_subscriptions'],
  apply: eachInOrder(applyBillingEvent),
};

async function applyBillingEvent(
  trx: Transaction<ReadModelDatabase>,
  recorded: RecordedEvent,
): Promise<void> {
  const userId = billingStream.idOf(recorded);
  const event = billingEvents.narrow(recorded);
  const at = recorded.occurredAt;
  if (event.type === 'BillingCustomerRecorded') {
    await trx
      .insertInto('rm_billing_customers')
      .values({
        user_id: userId,
        provider: event.data.provider,
        customer_id: event.data.customerId,
        recorded_at: at,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return;
  }
  const { subscriptionId, customerId, plan, status, periodEnd, cancelAtPeriodEnd, amount, currency } =
    event.data;
  const row = {
    customer_id: customerId,
    plan,
    status,
    period_end: new Date(periodEnd),
    cancel_at_period_end: cancelAtPeriodEnd,
    payment_failed: status === 'past_due' || status === 'unpaid',
    amount,
    currency,
    updated_at: at,
    last_revision: recorded.revision.toString(),
  };
  await trx
    .insertInto('rm_billing_subscriptions')
    .values({ subscription_id: subscriptionId, user_id: userId, started_at: at, ...row })
    .onConflict((oc) =>
      oc
        .column('subscription_id')
        .doUpdateSet(row)
        .where('rm_billing_subscriptions.last_revision', '<', recorded.revision.toString()),
    )
    .execute();
}
