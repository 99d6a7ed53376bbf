import type { ProviderSubscriptionStatus } from '@sniplink/contracts';

/** What decides whether a subscription makes its user Pro at an instant. */
export interface PaidTerms {
  status: ProviderSubscriptionStatus;
  /** The end of the period paid for. */
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

/**
 * Pro over time, the one rule: Pro while the subscription is active or trialing (a renewal the provider
 * has not reported yet keeps it so), unless it was set to end at the period's end and that has passed;
 * while past due, Pro until the period ends; Free otherwise (unpaid, paused, canceled, incomplete).
 * (projections/src/billing/queries.ts `proAt` says the same in SQL for the admin figures.)
 */
export function isProAt(terms: PaidTerms, now: Date): boolean {
  const beforeEnd = now.getTime() < terms.periodEnd.getTime();
  switch (terms.status) {
    case 'active':
    case 'trialing':
      return beforeEnd || !terms.cancelAtPeriodEnd;
    case 'past_due':
      return beforeEnd;
    default:
      return false;
  }
}

/** The last payment failed and the provider is still trying (past due), or has given up (unpaid). */
export const isPaymentFailing = (status: ProviderSubscriptionStatus): boolean =>
  status === 'past_due' || status === 'unpaid';

/** Paying now: the status a paid (or trial) period has. */
export const isPaying = (status: ProviderSubscriptionStatus): boolean =>
  status === 'active' || status === 'trialing';

/** Ended for good: the provider never brings such a subscription back. */
export const hasEnded = (status: ProviderSubscriptionStatus): boolean =>
  status === 'canceled' || status === 'incomplete_expired';

/**
 * The subscription that makes the user Pro at `now` (the one paid furthest ahead when there are several,
 * say two checkouts completed in two tabs), or undefined: the user is not Pro through a payment. The
 * choice never depends on the order the subscriptions come in (the user stream's mirror and the read
 * model's rows list them differently), so ties go to the yearly plan, then to one not set to end.
 */
export function currentSubscription<Terms extends PaidTerms & { plan: string }>(
  subscriptions: readonly Terms[],
  now: Date,
): Terms | undefined {
  let current: Terms | undefined;
  for (const subscription of subscriptions) {
    if (!isProAt(subscription, now)) continue;
    if (!current || ranksAbove(subscription, current)) current = subscription;
  }
  return current;
}

function ranksAbove(a: PaidTerms & { plan: string }, b: PaidTerms & { plan: string }): boolean {
  const byEnd = a.periodEnd.getTime() - b.periodEnd.getTime();
  if (byEnd !== 0) return byEnd > 0;
  if (a.plan !== b.plan) return a.plan === 'yearly';
  if (a.cancelAtPeriodEnd !== b.cancelAtPeriodEnd) return !a.cancelAtPeriodEnd;
  return isPaying(a.status) && !isPaying(b.status);
}
