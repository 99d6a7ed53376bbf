import { billingEndpoints, type CheckoutConfirmation } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { ApiError } from '../api/http';

/**
 * Back from the checkout with `payment=success&session_id=…`: the address alone proves nothing (anyone can
 * type it), so the page asks the server what became of that checkout, and says "Payment Successful!" only
 * when the server confirms it is this user's, paid, and the user Pro.
 */

/** While the provider's event is on its way (`processing`): ask again a second later, 10 times at most. */
export const CONFIRMATION_CHECKS = 10;
const CONFIRMATION_INTERVAL_MS = 1_000;

/** GET /api/subscriptions/checkout/{sessionId}; asked again while processing, within the bound. */
export const checkoutConfirmationQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: [billingEndpoints.confirmCheckout.path, sessionId] as const,
    queryFn: ({ signal }) => call(billingEndpoints.confirmCheckout, { params: { sessionId } }, { signal }),
    refetchInterval: (query) => askAgainAfterMs(query.state.data, query.state.dataUpdateCount),
  });

export function askAgainAfterMs(answer: CheckoutConfirmation | undefined, answers: number): number | false {
  return answer?.status === 'processing' && answers < CONFIRMATION_CHECKS ? CONFIRMATION_INTERVAL_MS : false;
}

/**
 * What the page tells the user: `confirmed` (the success), `pending` (paid, the plan not there after the
 * wait), `unconfirmed` (not this user's checkout, none, not paid, or the server could not tell), or
 * `signed-out`.
 */
export type PaymentVerdict = 'confirmed' | 'pending' | 'unconfirmed' | 'signed-out';

/** The verdict on the server's answers so far; undefined while there is none yet. */
export function paymentVerdict(check: {
  answer: CheckoutConfirmation | undefined;
  error: unknown;
  answers: number;
}): PaymentVerdict | undefined {
  if (check.error) {
    return check.error instanceof ApiError && check.error.status === 401 ? 'signed-out' : 'unconfirmed';
  }
  const status = check.answer?.status;
  switch (status) {
    case undefined:
      return undefined;
    case 'paid':
      return 'confirmed';
    case 'processing':
      return check.answers >= CONFIRMATION_CHECKS ? 'pending' : undefined;
    case 'open':
    case 'expired':
      return 'unconfirmed';
    default:
      return status satisfies never;
  }
}

/** The toast of every verdict but the success, whose texts each page has. */
export const paymentNotices = {
  pending: {
    tone: 'info',
    title: 'Payment Processing',
    message: 'Your payment is being confirmed. Your plan will update in a few minutes.',
  },
  unconfirmed: {
    tone: 'error',
    title: 'Payment Not Confirmed',
    message: 'We could not confirm this payment. Your plan has not changed.',
  },
  'signed-out': {
    tone: 'error',
    title: 'Payment Not Confirmed',
    message: 'Sign in to see whether your payment went through.',
  },
} as const satisfies Record<
  Exclude<PaymentVerdict, 'confirmed'>,
  { tone: string; title: string; message: string }
>;
