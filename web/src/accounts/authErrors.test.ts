import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { describeAuthError } from './authErrors';

const answer = (status: number, body: object, retryAfterSeconds?: number) =>
  new ApiError(status, JSON.stringify(body), '', retryAfterSeconds);

describe('describeAuthError', () => {
  it('keeps the message format: "{status}: {body text}"', () => {
    const body = { code: 'INVALID_CREDENTIALS', message: 'The e-mail address or password is not correct' };
    expect(answer(401, body).message).toBe(`401: ${JSON.stringify(body)}`);
  });

  it('turns codes into friendly text', () => {
    expect(describeAuthError(answer(401, { code: 'INVALID_CREDENTIALS', message: 'x' })).message).toBe(
      'That e-mail address and password do not match an account.',
    );
    expect(describeAuthError(answer(403, { code: 'ACCOUNT_SUSPENDED', message: 'x' })).message).toBe(
      'This account is suspended. Please contact support.',
    );
    expect(describeAuthError(answer(409, { code: 'EMAIL_TAKEN', message: 'x', field: 'email' }))).toEqual({
      message: 'An account with this e-mail address already exists.',
      field: 'email',
    });
  });

  it('says how long to wait when throttled', () => {
    expect(describeAuthError(answer(429, { code: 'RATE_LIMITED', message: 'x' }, 900)).message).toBe(
      'Too many attempts. Please wait 15 minutes and try again.',
    );
    expect(describeAuthError(answer(429, { code: 'RATE_LIMITED', message: 'x' }, 20)).message).toBe(
      'Too many attempts. Please wait a minute and try again.',
    );
    expect(describeAuthError(answer(429, { code: 'RATE_LIMITED', message: 'x' })).message).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    );
  });

  it("shows a validation message with the field's label and names the field", () => {
    const body = {
      code: 'VALIDATION_FAILED',
      message: 'firstName must be at most 100 characters',
      field: 'firstName',
    };
    expect(describeAuthError(answer(400, body))).toEqual({
      message: 'First name must be at most 100 characters',
      field: 'firstName',
    });
  });

  it("falls back to the server's message, then to a generic one", () => {
    expect(
      describeAuthError(answer(403, { code: 'FORBIDDEN_ORIGIN', message: 'Not from here' })).message,
    ).toBe('Not from here');
    expect(describeAuthError(new ApiError(502, '', 'Bad Gateway')).message).toBe(
      'Something went wrong. Please try again.',
    );
    expect(describeAuthError(new TypeError('Failed to fetch')).message).toMatch(/could not be reached/);
  });
});
