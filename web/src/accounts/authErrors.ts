import { ApiError } from '../api/http';

/** What to tell the user about a failed auth call, and which input, if any, it is about. */
export interface AuthProblem {
  message: string;
  field?: string;
}

/** The API names fields as its bodies do; the user reads them as the labels show them. */
const fieldLabels: Record<string, string> = {
  email: 'E-mail',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
};

function waitText(seconds: number | undefined): string {
  if (seconds === undefined) return 'a few minutes';
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
}

/** Friendly text for the codes the auth calls answer with; anything else shows the server's message. */
export function describeAuthError(error: Error): AuthProblem {
  if (!(error instanceof ApiError)) {
    return { message: 'Sniplink could not be reached. Check your connection and try again.' };
  }
  switch (error.code) {
    case 'INVALID_CREDENTIALS':
      return { message: 'That e-mail address and password do not match an account.' };
    case 'RATE_LIMITED':
      return {
        message: `Too many attempts. Please wait ${waitText(error.retryAfterSeconds)} and try again.`,
      };
    case 'ACCOUNT_SUSPENDED':
      return { message: 'This account is suspended. Please contact support.' };
    case 'EMAIL_TAKEN':
      return { message: 'An account with this e-mail address already exists.', field: 'email' };
    case 'VALIDATION_FAILED': {
      // "password must be at least 8 characters" reads "Password must be at least 8 characters".
      const message = error.serverMessage ?? 'Please check the form and try again.';
      const { field } = error;
      if (!field) return { message };
      const label = fieldLabels[field];
      return {
        message: label && message.startsWith(`${field} `) ? label + message.slice(field.length) : message,
        field,
      };
    }
    default:
      return { message: error.serverMessage ?? 'Something went wrong. Please try again.' };
  }
}
