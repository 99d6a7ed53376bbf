import type { User } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { currentUserQueryOptions } from '../api/auth';
import { toast } from '../components/toast';

/** The login redirect waits this long so the toast can be read (spec, section 9). */
export const loginRedirectDelayMs = 500;

/** A navigation, not a data call (spec, section 2); it comes back to this page once signed in. */
export function goToLogin(): void {
  window.location.assign(`/api/login?returnTo=${encodeURIComponent(window.location.pathname)}`);
}

export function announceSignedOutAndLogIn(): () => void {
  toast.error('Unauthorized', 'You are logged out. Logging in again...');
  const timer = window.setTimeout(goToLogin, loginRedirectDelayMs);
  return () => window.clearTimeout(timer);
}

/**
 * The signed-in user, or undefined while it loads. Once it is known that nobody is signed in (a 401, or
 * any failure, spec section 4), a toast says so and the browser goes to the login after 500 ms.
 */
export function useSignedInUser(): User | undefined {
  const { data: user, isPending, isError } = useQuery(currentUserQueryOptions());
  const signedOut = !isPending && (isError || user === null);
  useEffect(() => (signedOut ? announceSignedOutAndLogIn() : undefined), [signedOut]);
  return signedOut ? undefined : (user ?? undefined);
}
