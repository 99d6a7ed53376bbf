import { ApiError } from '../api/http';

/** What a toast says about a failed call. */
export interface Problem {
  title: string;
  message: string;
}

const serverMessageOf = (error: unknown): string | undefined =>
  error instanceof ApiError ? error.serverMessage : undefined;

/** A create that failed; `signedOut` asks the caller to go to the login. */
export function createLinkProblem(error: unknown): Problem & { signedOut?: true } {
  if (error instanceof ApiError) {
    if (error.status === 401 && error.message.includes('Unauthorized')) {
      return { title: 'Unauthorized', message: 'You are logged out. Logging in again...', signedOut: true };
    }
    if (error.code === 'SUBSCRIPTION_REQUIRED') {
      return {
        title: 'Subscription Required',
        message: 'Free users are limited to 5 links per month. Please subscribe to create more links.',
      };
    }
    if (error.code === 'MONTHLY_LIMIT_REACHED') {
      return { title: 'Monthly Limit Reached', message: 'You have reached your monthly limit of 500 links.' };
    }
  }
  return { title: 'Error', message: serverMessageOf(error) ?? 'Failed to create link' };
}

/**
 * A duplicate that failed. A duplicate is a new link, so the plan's limits read as they do on create;
 * anything else is "Failed to duplicate link".
 */
export function duplicateLinkProblem(error: unknown): Problem {
  if (
    error instanceof ApiError &&
    (error.code === 'SUBSCRIPTION_REQUIRED' || error.code === 'MONTHLY_LIMIT_REACHED')
  ) {
    const { title, message } = createLinkProblem(error);
    return { title, message };
  }
  return { title: 'Error', message: 'Failed to duplicate link' };
}

export function updateLinkProblem(error: unknown): Problem {
  if (
    error instanceof ApiError &&
    (error.code === 'SHORT_CODE_TAKEN' || error.message.includes('already taken'))
  ) {
    return {
      title: 'Short Code Taken',
      message: 'This short code is already in use. Please choose a different one.',
    };
  }
  return { title: 'Error', message: serverMessageOf(error) ?? 'Failed to update link' };
}

/** The dashboard's and onboarding's rule for a URL typed in. */
export const startsWithHttp = (url: string): boolean => /^https?:\/\//i.test(url);

export const invalidUrlProblem: Problem = {
  title: 'Invalid URL',
  message: 'Please enter a valid URL starting with http:// or https://',
};

/** A demo link made during onboarding that failed; matched on the message text. */
export function onboardingDemoProblem(error: unknown): Problem {
  const text = error instanceof Error ? error.message : '';
  if (text.includes('429')) {
    return {
      title: 'Demo Limit Reached',
      message: "You've reached the demo limit. Your free account includes 5 trackable links!",
    };
  }
  if (text.includes('INVALID_URL')) {
    return { title: 'URL Not Allowed', message: 'This URL cannot be shortened. Please try a different URL.' };
  }
  if (text.includes('RATE_LIMITED')) {
    return {
      title: 'Demo Limit Reached',
      message: 'Please continue with your free account to create more links.',
    };
  }
  return { title: 'Error', message: 'Failed to create demo link' };
}
