import { accountNavigations, type User } from '@sniplink/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { redirect, useRouteContext } from '@tanstack/react-router';
import { useEffect } from 'react';
import { urlOf } from '../api/client';
import { toast } from '../components/toast';
import { currentUserQueryOptions } from './api';

/** The login redirect waits this long so the toast can be read. */
export const loginRedirectDelayMs = 500;

/** A navigation, not a data call; it comes back to `path` once signed in. */
export function loginHref(path: string): string {
  return urlOf(accountNavigations.startSignIn, { query: { returnTo: path } });
}

function goToLogin(): void {
  window.location.assign(loginHref(window.location.pathname));
}

const sayLoggedOut = () => toast.error('Unauthorized', 'You are logged out. Logging in again...');

export function announceSignedOutAndLogIn(): () => void {
  sayLoggedOut();
  const timer = window.setTimeout(goToLogin, loginRedirectDelayMs);
  return () => window.clearTimeout(timer);
}

/**
 * The signed-in user, from the cache when it is there (no request, so a signed-in page shows at once), or
 * null: a 401 or any other failure reads as signed out.
 */
export async function signedInUserOrNull(queryClient: QueryClient): Promise<User | null> {
  return queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null);
}

/**
 * The authenticated layout's gate: the user, or, for a visitor who is not signed in, the toast and after
 * 500 ms a full navigation to the login that comes back to `path`. A preload (a hovered link) only
 * redirects, without a toast or a wait.
 */
export async function requireSignedInUser(
  queryClient: QueryClient,
  path: string,
  preload = false,
): Promise<User> {
  const user = await signedInUserOrNull(queryClient);
  if (user) return user;
  if (!preload) {
    sayLoggedOut();
    await new Promise((resolve) => setTimeout(resolve, loginRedirectDelayMs));
  }
  throw redirect({ href: loginHref(path), reloadDocument: true });
}

/**
 * The signed-in user of a page under the authenticated layout: the one its gate let in, kept up to date
 * by the query (a renamed profile shows at once).
 */
export function useSignedInUser(): User {
  const admitted = useRouteContext({ from: '/_authenticated', select: (context) => context.user });
  const { data } = useQuery(currentUserQueryOptions());
  return data ?? admitted;
}

/** The session ended while a page was open (the user is asked again on focus): say so and log in. */
export function useLogInAgainWhenSignedOut(): boolean {
  const { data: user, isPending, isError } = useQuery(currentUserQueryOptions());
  const signedOut = !isPending && (isError || user === null);
  useEffect(() => (signedOut ? announceSignedOutAndLogIn() : undefined), [signedOut]);
  return signedOut;
}
