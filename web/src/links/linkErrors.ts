import { ApiError } from '../api/http';

/** What a toast says about a failed call. */
export interface Problem {
  title: string;
  message: string;
}

const serverMessageOf = (error: unknown): string | undefined =>
  error instanceof ApiError ? error.serverMessage : undefined;

/** A create refused by the plan's allowance. */
export const isLinkLimitError = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  (error.code === 'SUBSCRIPTION_REQUIRED' || error.code === 'MONTHLY_LIMIT_REACHED');

/**
 * The server's refusal names the limit in force (an admin may have changed it) and what to do: it is shown
 * as said, never with a figure of the web app's own.
 */
const linkLimitProblem = (error: ApiError): Problem => ({
  title: 'Link Limit Reached',
  message: error.serverMessage ?? 'You have no links left on your plan.',
});

/**
 * A custom code the admin's lists refuse (create or edit): a toast says so, in the server's words, which
 * never repeat the word that matched.
 */
export function moderationProblem(error: unknown): Problem | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'PROHIBITED_CODE')
    return {
      title: 'Short Code Not Allowed',
      message: error.serverMessage ?? 'This short code is not allowed',
    };
  if (error.code === 'PROTECTED_BRAND')
    return {
      title: 'Protected Brand',
      message: error.serverMessage ?? 'This short code contains a protected brand name',
    };
  return undefined;
}

/** What the success toast adds for a code that waits for an admin's approval. */
export const PENDING_APPROVAL_NOTE =
  'Its short code contains a protected brand name: it redirects once an admin approves it.';

/**
 * A control an admin keeps for Pro (password, expiry, pause, tags) refused to a Free account: the same
 * answer as the link limit's (403 SUBSCRIPTION_REQUIRED), whose message names the control and the upgrade.
 */
const proControlProblem = (error: ApiError): Problem => ({
  title: 'Upgrade to Pro',
  message: error.serverMessage ?? 'This option is available on Pro accounts.',
});

/**
 * A create that failed; `signedOut` asks the caller to go to the login. With links remaining
 * (`linksRemain`), the plan's refusal can only be of a control the form set.
 */
export function createLinkProblem(
  error: unknown,
  { linksRemain = false }: { linksRemain?: boolean } = {},
): Problem & { signedOut?: true } {
  if (error instanceof ApiError && error.status === 401) {
    return { title: 'Unauthorized', message: 'You are logged out. Logging in again...', signedOut: true };
  }
  if (isLinkLimitError(error)) return linksRemain ? proControlProblem(error) : linkLimitProblem(error);
  return { title: 'Error', message: serverMessageOf(error) ?? 'Failed to create link' };
}

/**
 * A duplicate that failed. A duplicate is a new link, so the plan's limits read as they do on create;
 * anything else is "Failed to duplicate link".
 */
export function duplicateLinkProblem(error: unknown): Problem {
  if (isLinkLimitError(error)) return linkLimitProblem(error);
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
  // An edit never counts against the link limit: the plan's refusal is of a control.
  if (isLinkLimitError(error)) return proControlProblem(error);
  return { title: 'Error', message: serverMessageOf(error) ?? 'Failed to update link' };
}

/**
 * The message of a refusal that belongs to one of a form's fields (the server names it: `originalUrl`,
 * `shortCode`, `title`), for the form to show on that field; undefined when it belongs to none of them.
 */
export function fieldProblemOf<Field extends string>(
  error: unknown,
  fields: readonly Field[],
): { field: Field; message: string } | undefined {
  if (!(error instanceof ApiError) || error.status === 401) return undefined;
  const field = fields.find((name) => name === error.field);
  if (field === undefined) return undefined;
  return { field, message: error.serverMessage ?? 'Please check this field' };
}

/**
 * A first link made during onboarding that failed. At the plan's limit the server says why and what to
 * do (`limitReached`: the step offers the dashboard and the upgrade); a refused URL belongs to its field.
 */
export function onboardingDemoProblem(error: unknown): Problem & { limitReached?: true } {
  if (isLinkLimitError(error)) return { ...linkLimitProblem(error), limitReached: true };
  if (error instanceof ApiError && (error.status === 429 || error.code === 'RATE_LIMITED')) {
    return {
      title: 'Too Many Links at Once',
      message: 'Please wait a minute and try again, or continue to your dashboard.',
    };
  }
  if (error instanceof ApiError && error.code === 'INVALID_URL') {
    return { title: 'URL Not Allowed', message: error.serverMessage ?? 'This URL cannot be shortened.' };
  }
  return {
    title: 'Error',
    message: 'The link could not be created. Please check your connection and try again.',
  };
}
