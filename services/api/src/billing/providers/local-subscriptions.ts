// A local subscription's life besides checkout: its periods, and what each portal button does to it.
import { invoiceObject, type LocalEvent, type LocalSubscription, subscriptionObject } from './local-events';

/** The local portal's buttons. */
export type PortalAction = 'cancel-at-period-end' | 'end-now' | 'fail-payment';

/**
 * What a portal button does to the subscription, and the events Stripe would send for it; undefined
 * when it does not apply (an ended subscription, a cancellation already scheduled, a failed payment
 * already recorded).
 */
export function portalChange(
  action: PortalAction,
  current: LocalSubscription,
  now: Date,
  newInvoiceId: () => string,
): { subscription: LocalSubscription; events: LocalEvent[] } | undefined {
  const live = current.status === 'active' || current.status === 'trialing' || current.status === 'past_due';
  if (!live) return undefined;
  switch (action) {
    case 'cancel-at-period-end': {
      if (current.cancelAtPeriodEnd) return undefined;
      const subscription = { ...current, cancelAtPeriodEnd: true };
      return {
        subscription,
        events: [
          {
            type: 'customer.subscription.updated',
            object: subscriptionObject(subscription),
            previousAttributes: { cancel_at_period_end: false, cancel_at: null },
          },
        ],
      };
    }
    case 'end-now': {
      const subscription: LocalSubscription = { ...current, status: 'canceled', periodEnd: now };
      return {
        subscription,
        events: [{ type: 'customer.subscription.deleted', object: subscriptionObject(subscription) }],
      };
    }
    case 'fail-payment': {
      if (current.status === 'past_due') return undefined;
      const subscription: LocalSubscription = { ...current, status: 'past_due' };
      return {
        subscription,
        events: [
          { type: 'invoice.payment_failed', object: invoiceObject(newInvoiceId(), subscription, false) },
          {
            type: 'customer.subscription.updated',
            object: subscriptionObject(subscription),
            previousAttributes: { status: current.status },
          },
        ],
      };
    }
    default: {
      const unknown: never = action;
      throw new Error(`unknown portal action ${String(unknown)}`);
    }
  }
}

/**
 * `months` calendar months later (UTC), on the same day or, where that month is shorter, its last day:
 * a subscription started on January 31 renews on February 28 (29), as Stripe's do.
 */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}
