import { MAX_OWNED_PREMIUM_SLUGS } from '@sniplink/contracts/premium-slugs';
import { ApiError } from '../api/http';

/** What the checkout page says when the payment could not be set up. */
export interface PaymentSetupProblem {
  title:
    | 'Pro Subscription Required'
    | 'Premium Slug Limit Reached'
    | 'Payment Setup Failed'
    | 'Login Required'
    | 'Purchases Not Enabled';
  message: string;
  /** The slugs the buyer owns or holds, with the limit reached. */
  ownedCount?: number;
  /** Signed out (401): offer the login. */
  signedOut?: boolean;
}

/**
 * The payment-intent call's failure: with `requiresPro`, "Pro Subscription Required" and the server's
 * message; with `currentCount` at the limit, "Premium Slug Limit Reached", the message and the count;
 * with `PAYMENTS_DISABLED`, "Purchases Not Enabled" and the server's sentence; otherwise "Payment Setup Failed".
 */
export function paymentSetupProblem(error: unknown): PaymentSetupProblem {
  const apiError = error instanceof ApiError ? error : undefined;
  const message = apiError?.serverMessage ?? 'The payment could not be set up. Please try again.';
  if (apiError?.status === 401)
    return { title: 'Login Required', message: 'Please log in to purchase premium slugs.', signedOut: true };
  if (apiError?.code === 'PAYMENTS_DISABLED') return { title: 'Purchases Not Enabled', message };
  if (apiError?.body?.requiresPro === true) return { title: 'Pro Subscription Required', message };
  const count = apiError?.body?.currentCount;
  if (typeof count === 'number' && count >= MAX_OWNED_PREMIUM_SLUGS)
    return { title: 'Premium Slug Limit Reached', message, ownedCount: count };
  return { title: 'Payment Setup Failed', message };
}
