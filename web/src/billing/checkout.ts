import type { CreateSubscriptionAnswer } from '@sniplink/contracts';
import { ApiError, UnexpectedAnswerError } from '../api/http';
import type { Problem } from '../links/linkErrors';

/** The subscribe page waits this long before it sends the browser to the checkout. */
export const checkoutRedirectDelayMs = 1000;

/** What the subscribe page does once `POST /api/create-subscription` has answered or failed. */
export type CheckoutOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'already-subscribed'; message: string }
  | { kind: 'failed'; problem: Problem }
  | { kind: 'signed-out' };

const checkoutError = (message: string): CheckoutOutcome => ({
  kind: 'failed',
  problem: { title: 'Checkout Error', message },
});

const noSessionUrl = checkoutError('No checkout session URL received from server');

/** An answer: the checkout to go to, or the user is Pro already. */
export function checkoutAnswerOutcome(answer: CreateSubscriptionAnswer): CheckoutOutcome {
  if ('status' in answer) return { kind: 'already-subscribed', message: answer.message };
  const url = answer.sessionUrl.trim();
  return url === '' ? noSessionUrl : { kind: 'redirect', url };
}

/**
 * A failure: the server's message, else "Failed to create checkout session"; an OK answer without a
 * checkout URL (of another shape than the contract's) is "No checkout session URL received from server".
 * A 401 (the session ended meanwhile) sends the visitor to sign in.
 */
export function checkoutFailureOutcome(error: unknown): CheckoutOutcome {
  if (error instanceof UnexpectedAnswerError) return noSessionUrl;
  if (error instanceof ApiError && error.status === 401) return { kind: 'signed-out' };
  const serverMessage = error instanceof ApiError ? error.serverMessage?.trim() : undefined;
  return checkoutError(serverMessage || 'Failed to create checkout session');
}

/** "Manage billing" failed: the server's message (e.g. "No billing account yet"), else a generic one. */
export function billingPortalProblem(error: unknown): Problem & { signedOut?: true } {
  if (error instanceof ApiError && error.status === 401) {
    return { title: 'Unauthorized', message: 'You are logged out. Logging in again...', signedOut: true };
  }
  const serverMessage = error instanceof ApiError ? error.serverMessage?.trim() : undefined;
  return { title: 'Billing Error', message: serverMessage || 'Failed to open the billing portal' };
}
