import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { paymentSetupProblem } from './checkoutFacts';

const answered = (status: number, body: unknown) => new ApiError(status, JSON.stringify(body), '');

describe('the checkout page when the payment cannot be set up', () => {
  it('says "Pro Subscription Required" with the server message for requiresPro', () => {
    expect(
      paymentSetupProblem(answered(403, { code: 'FORBIDDEN', message: 'Pro only', requiresPro: true })),
    ).toEqual({ title: 'Pro Subscription Required', message: 'Pro only' });
  });

  it('says "Purchases Not Enabled" with the server\'s sentence on a server that sells nothing', () => {
    expect(
      paymentSetupProblem(answered(409, { code: 'PAYMENTS_DISABLED', message: 'Not on this server.' })),
    ).toEqual({ title: 'Purchases Not Enabled', message: 'Not on this server.' });
  });

  it('says "Premium Slug Limit Reached" with the count at 3 or more', () => {
    expect(
      paymentSetupProblem(answered(409, { code: 'CONFLICT', message: 'At most 3', currentCount: 3 })),
    ).toEqual({ title: 'Premium Slug Limit Reached', message: 'At most 3', ownedCount: 3 });
  });

  it('says "Payment Setup Failed" otherwise, with the server message when there is one', () => {
    expect(
      paymentSetupProblem(answered(409, { code: 'CONFLICT', message: 'Someone else is buying' })),
    ).toEqual({
      title: 'Payment Setup Failed',
      message: 'Someone else is buying',
    });
    expect(paymentSetupProblem(new Error('offline')).title).toBe('Payment Setup Failed');
    expect(
      paymentSetupProblem(answered(401, { code: 'UNAUTHORIZED', message: 'Unauthorized' })),
    ).toMatchObject({
      signedOut: true,
    });
  });
});
