import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { askAgainAfterMs, CONFIRMATION_CHECKS, paymentNotices, paymentVerdict } from './checkoutConfirmation';

const answer = (status: 'paid' | 'processing' | 'open' | 'expired') => ({ sessionId: 'cs_test_1', status });
const refused = (status: number, body: object) => new ApiError(status, JSON.stringify(body), '');

describe('the payment a user came back from', () => {
  it('is a success only once the server says it is paid and the user Pro', () => {
    expect(paymentVerdict({ answer: answer('paid'), error: null, answers: 1 })).toBe('confirmed');
    expect(paymentVerdict({ answer: undefined, error: null, answers: 0 })).toBeUndefined();
  });

  it("is not confirmed for a session that is not the user's (or none), an unpaid or expired one, or no answer", () => {
    const notFound = refused(404, { code: 'NOT_FOUND', message: 'We could not confirm this payment' });
    expect(paymentVerdict({ answer: undefined, error: notFound, answers: 0 })).toBe('unconfirmed');
    expect(paymentVerdict({ answer: answer('open'), error: null, answers: 1 })).toBe('unconfirmed');
    expect(paymentVerdict({ answer: answer('expired'), error: null, answers: 1 })).toBe('unconfirmed');
    const down = refused(503, { code: 'SERVICE_UNAVAILABLE', message: 'busy' });
    expect(paymentVerdict({ answer: undefined, error: down, answers: 0 })).toBe('unconfirmed');
    expect(paymentVerdict({ answer: undefined, error: new TypeError('Failed to fetch'), answers: 0 })).toBe(
      'unconfirmed',
    );
    expect(paymentVerdict({ answer: undefined, error: refused(401, {}), answers: 0 })).toBe('signed-out');
    expect(paymentNotices.unconfirmed.message).toBe(
      'We could not confirm this payment. Your plan has not changed.',
    );
  });

  it('waits while the plan is on its way, asking again a second apart, and is pending after the last answer', () => {
    for (let answers = 1; answers < CONFIRMATION_CHECKS; answers++) {
      expect(paymentVerdict({ answer: answer('processing'), error: null, answers })).toBeUndefined();
      expect(askAgainAfterMs(answer('processing'), answers)).toBe(1_000);
    }
    expect(paymentVerdict({ answer: answer('processing'), error: null, answers: CONFIRMATION_CHECKS })).toBe(
      'pending',
    );
    expect(askAgainAfterMs(answer('processing'), CONFIRMATION_CHECKS)).toBe(false);
    expect(paymentNotices.pending.tone).toBe('info');
  });

  it('asks once about a settled checkout', () => {
    for (const status of ['paid', 'open', 'expired'] as const)
      expect(askAgainAfterMs(answer(status), 1)).toBe(false);
    expect(askAgainAfterMs(undefined, 0)).toBe(false);
  });
});
