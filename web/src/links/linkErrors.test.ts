import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import {
  createLinkProblem,
  duplicateLinkProblem,
  onboardingDemoProblem,
  startsWithHttp,
  updateLinkProblem,
} from './linkErrors';

const apiError = (status: number, code: string, message: string) =>
  new ApiError(status, JSON.stringify({ code, message }), '');

describe('createLinkProblem', () => {
  it('sends a signed-out user to the login', () => {
    expect(createLinkProblem(apiError(401, 'UNAUTHORIZED', 'Unauthorized'))).toEqual({
      title: 'Unauthorized',
      message: 'You are logged out. Logging in again...',
      signedOut: true,
    });
  });

  it('names the plan limits', () => {
    expect(createLinkProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', 'x')).title).toBe(
      'Subscription Required',
    );
    expect(createLinkProblem(apiError(403, 'MONTHLY_LIMIT_REACHED', 'x')).message).toBe(
      'You have reached your monthly limit of 500 links.',
    );
  });

  it("shows the server's message, else a generic one", () => {
    expect(createLinkProblem(apiError(400, 'INVALID_URL', 'URL is not allowed')).message).toBe(
      'URL is not allowed',
    );
    expect(createLinkProblem(new TypeError('Failed to fetch')).message).toBe('Failed to create link');
  });
});

describe('duplicateLinkProblem', () => {
  it('names the plan limits as a create does', () => {
    expect(duplicateLinkProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', 'x'))).toEqual({
      title: 'Subscription Required',
      message: 'Free users are limited to 5 links per month. Please subscribe to create more links.',
    });
    expect(duplicateLinkProblem(apiError(403, 'MONTHLY_LIMIT_REACHED', 'x')).title).toBe(
      'Monthly Limit Reached',
    );
  });

  it('says the duplicate failed otherwise', () => {
    expect(duplicateLinkProblem(apiError(404, 'NOT_FOUND', 'No such link'))).toEqual({
      title: 'Error',
      message: 'Failed to duplicate link',
    });
  });
});

describe('updateLinkProblem', () => {
  it('says when a short code is taken', () => {
    expect(updateLinkProblem(apiError(409, 'SHORT_CODE_TAKEN', 'Short code already taken')).title).toBe(
      'Short Code Taken',
    );
  });

  it('falls back to "Failed to update link"', () => {
    expect(updateLinkProblem(new Error('boom')).message).toBe('Failed to update link');
  });
});

describe('startsWithHttp', () => {
  it('accepts only http:// and https://', () => {
    expect(startsWithHttp('https://example.com')).toBe(true);
    expect(startsWithHttp('http://example.com')).toBe(true);
    expect(startsWithHttp('example.com')).toBe(false);
    expect(startsWithHttp('ftp://example.com')).toBe(false);
  });
});

describe('onboardingDemoProblem', () => {
  it('matches on the message text', () => {
    expect(onboardingDemoProblem(apiError(429, 'RATE_LIMITED', 'Too many')).title).toBe('Demo Limit Reached');
    expect(onboardingDemoProblem(apiError(400, 'INVALID_URL', 'Not allowed')).title).toBe('URL Not Allowed');
    expect(onboardingDemoProblem(apiError(403, 'SUBSCRIPTION_REQUIRED', 'x')).message).toBe(
      'Failed to create demo link',
    );
  });
});
