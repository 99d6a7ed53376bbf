import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import {
  createLinkProblem,
  duplicateLinkProblem,
  fieldProblemOf,
  moderationProblem,
  onboardingDemoProblem,
  updateLinkProblem,
} from './linkErrors';

const apiError = (status: number, code: string, message: string, field?: string) =>
  new ApiError(status, JSON.stringify({ code, message, field }), '');

/** What the server says at an admin's limit of 14: the toast must say 14 too, never a figure of its own. */
const freeAt14 =
  'Free accounts can hold 14 links at a time. Delete a link, or upgrade to Pro to create more.';
const proAt14 =
  "Pro accounts can create 14 links a month, and this month's are used. More can be created from the 1st of next month (UTC).";

const proOnlyPassword = 'Password-protected links are available on Pro accounts. Upgrade to Pro to use them.';

describe('createLinkProblem', () => {
  it('sends a signed-out user to the login', () => {
    expect(createLinkProblem(apiError(401, 'UNAUTHORIZED', 'Unauthorized'))).toEqual({
      title: 'Unauthorized',
      message: 'You are logged out. Logging in again...',
      signedOut: true,
    });
  });

  it("names the plan's limit as the server says it, with the limit in force", () => {
    expect(createLinkProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', freeAt14))).toEqual({
      title: 'Link Limit Reached',
      message: freeAt14,
    });
    expect(createLinkProblem(apiError(403, 'MONTHLY_LIMIT_REACHED', proAt14)).message).toBe(proAt14);
  });

  it("shows the server's message, else a generic one", () => {
    expect(createLinkProblem(apiError(409, 'CONFLICT', 'Try again')).message).toBe('Try again');
    expect(createLinkProblem(new TypeError('Failed to fetch')).message).toBe('Failed to create link');
  });
});

describe('fieldProblemOf', () => {
  it('puts a refusal on the field the server names, if the form has it', () => {
    const taken = apiError(409, 'SHORT_CODE_TAKEN', 'This short code is already taken', 'shortCode');
    expect(fieldProblemOf(taken, ['originalUrl', 'shortCode'])).toEqual({
      field: 'shortCode',
      message: 'This short code is already taken',
    });
    expect(fieldProblemOf(taken, ['originalUrl'])).toBeUndefined();
    expect(fieldProblemOf(apiError(403, 'SUBSCRIPTION_REQUIRED', freeAt14), ['originalUrl'])).toBeUndefined();
  });
});

describe('duplicateLinkProblem', () => {
  it('names the plan limits as a create does', () => {
    expect(duplicateLinkProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', freeAt14))).toEqual({
      title: 'Link Limit Reached',
      message: freeAt14,
    });
  });

  it('says the duplicate failed otherwise', () => {
    expect(duplicateLinkProblem(apiError(404, 'NOT_FOUND', 'No such link'))).toEqual({
      title: 'Error',
      message: 'Failed to duplicate link',
    });
  });
});

describe('updateLinkProblem', () => {
  it('falls back to "Failed to update link"', () => {
    expect(updateLinkProblem(new Error('boom')).message).toBe('Failed to update link');
  });

  it("asks for the upgrade when a control is kept for Pro, in the server's words", () => {
    expect(updateLinkProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', proOnlyPassword))).toEqual({
      title: 'Upgrade to Pro',
      message: proOnlyPassword,
    });
  });
});

describe('a create refused for a control kept for Pro', () => {
  it('reads as the upgrade it is while links remain, as the link limit once none do', () => {
    const refusal = apiError(403, 'SUBSCRIPTION_REQUIRED', proOnlyPassword);
    expect(createLinkProblem(refusal, { linksRemain: true })).toEqual({
      title: 'Upgrade to Pro',
      message: proOnlyPassword,
    });
    expect(createLinkProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', freeAt14)).title).toBe(
      'Link Limit Reached',
    );
  });
});

describe('onboardingDemoProblem', () => {
  it('says why at the plan limit, and asks for the way on', () => {
    expect(onboardingDemoProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', freeAt14))).toEqual({
      title: 'Link Limit Reached',
      message: freeAt14,
      limitReached: true,
    });
  });

  it('tells a refused URL and a burst apart', () => {
    expect(onboardingDemoProblem(apiError(400, 'INVALID_URL', 'Not allowed')).title).toBe('URL Not Allowed');
    expect(onboardingDemoProblem(apiError(429, 'RATE_LIMITED', 'Too many')).title).toBe(
      'Too Many Links at Once',
    );
  });
});

describe('moderationProblem', () => {
  it("toasts a code the admin's lists refuse in the server's words, and nothing else", () => {
    expect(
      moderationProblem(apiError(400, 'PROHIBITED_CODE', 'This short code is not allowed', 'shortCode')),
    ).toEqual({
      title: 'Short Code Not Allowed',
      message: 'This short code is not allowed',
    });
    expect(
      moderationProblem(apiError(400, 'PROTECTED_BRAND', 'This short code contains a protected brand name')),
    ).toEqual({ title: 'Protected Brand', message: 'This short code contains a protected brand name' });
    expect(moderationProblem(apiError(400, 'INVALID_SHORT_CODE', 'x', 'shortCode'))).toBeUndefined();
  });
});
