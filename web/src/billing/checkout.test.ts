import { describe, expect, it } from 'vitest';
import { ApiError, UnexpectedAnswerError } from '../api/http';
import { billingPortalProblem, checkoutAnswerOutcome, checkoutFailureOutcome } from './checkout';

const apiError = (status: number, body: string) => new ApiError(status, body, 'Status text');

describe('what the subscribe page does with an answer', () => {
  it('goes to the checkout the server names', () => {
    expect(checkoutAnswerOutcome({ sessionUrl: 'https://checkout.example/c/cs_1' })).toEqual({
      kind: 'redirect',
      url: 'https://checkout.example/c/cs_1',
    });
  });

  it('says "Already Subscribed" with the server message when the user is Pro', () => {
    expect(
      checkoutAnswerOutcome({ status: 'active', message: 'You already have an active subscription' }),
    ).toEqual({ kind: 'already-subscribed', message: 'You already have an active subscription' });
  });

  it('says no URL was received when the checkout URL is empty', () => {
    expect(checkoutAnswerOutcome({ sessionUrl: ' ' })).toEqual({
      kind: 'failed',
      problem: { title: 'Checkout Error', message: 'No checkout session URL received from server' },
    });
  });
});

describe('what the subscribe page says when the call fails', () => {
  it("shows the server's message", () => {
    const error = apiError(400, '{"code":"VALIDATION_FAILED","message":"plan: must be monthly or yearly"}');
    expect(checkoutFailureOutcome(error)).toEqual({
      kind: 'failed',
      problem: { title: 'Checkout Error', message: 'plan: must be monthly or yearly' },
    });
  });

  it('says "Failed to create checkout session" when the server gave no message', () => {
    const generic = {
      kind: 'failed',
      problem: { title: 'Checkout Error', message: 'Failed to create checkout session' },
    };
    expect(checkoutFailureOutcome(apiError(502, '<html>Bad Gateway</html>'))).toEqual(generic);
    expect(checkoutFailureOutcome(apiError(500, ''))).toEqual(generic);
    expect(checkoutFailureOutcome(new TypeError('Failed to fetch'))).toEqual(generic);
  });

  it('says no URL was received when an OK answer carries none', () => {
    expect(checkoutFailureOutcome(new UnexpectedAnswerError('not what this page expects'))).toEqual({
      kind: 'failed',
      problem: { title: 'Checkout Error', message: 'No checkout session URL received from server' },
    });
  });

  it('sends a visitor whose session ended to sign in', () => {
    expect(checkoutFailureOutcome(apiError(401, '{"code":"UNAUTHORIZED","message":"Unauthorized"}'))).toEqual(
      { kind: 'signed-out' },
    );
  });
});

describe('what "Manage billing" says when the portal cannot open', () => {
  it("shows the server's reason, or a generic one", () => {
    const noCustomer = apiError(409, '{"code":"CONFLICT","message":"No billing account yet"}');
    expect(billingPortalProblem(noCustomer)).toEqual({
      title: 'Billing Error',
      message: 'No billing account yet',
    });
    expect(billingPortalProblem(new TypeError('Failed to fetch'))).toEqual({
      title: 'Billing Error',
      message: 'Failed to open the billing portal',
    });
  });

  it('logs in again when the session ended', () => {
    expect(billingPortalProblem(apiError(401, 'Unauthorized')).signedOut).toBe(true);
  });
});
