import { paidPlanEvents, userStream } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/**
 * The paid periods read model: each user's subscriptions as the user stream's `PaidPlanSynced` mirrors
 * them, the events the user decider folds to say whether the user is Pro (`isUserProAt`), so the plan a
 * user and the admin console see cannot disagree with what the rules allow. (An erased account is shown
 * nowhere, and its subscription is billed until the provider ends it: its rows stay.) Idempotent: an
 * event applies only past the user's `last_revision`.
 */
export const paidPlansProjection: Projection = {
  name: 'paid-plans',
  version: 1,
  handles: paidPlanEvents.types,
  tables: ['rm_paid_plans', 'rm_paid_periods'],
  apply: eachInOrder(applyPaidPlanEvent),
};

async function applyPaidPlanEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const event = paidPlanEvents.narrow(recorded);
  const userId = userStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const moved = await trx
    .insertInto('rm_paid_plans')
    .values({ user_id: userId, last_revision: revision })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ last_revision: revision })
        .where('rm_paid_plans.last_revision', '<', revision),
    )
    .returning('user_id')
    .executeTakeFirst();
  if (!moved) return;
  await trx.deleteFrom('rm_paid_periods').where('user_id', '=', userId).execute();
  const { subscriptions } = event.data;
  if (subscriptions.length === 0) return;
  await trx
    .insertInto('rm_paid_periods')
    .values(
      subscriptions.map(({ subscriptionId, plan, status, periodEnd, cancelAtPeriodEnd }) => ({
        user_id: userId,
        subscription_id: subscriptionId,
        plan,
        status,
        period_end: new Date(periodEnd),
        cancel_at_period_end: cancelAtPeriodEnd,
      })),
    )
    .execute();
}
