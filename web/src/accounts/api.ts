import { accountEndpoints, type LoginBody, type User } from '@sniplink/contracts';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { type CallParts, call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const {
  currentUser,
  whoAmI,
  signIn,
  register,
  requestPasswordReset,
  resetPassword,
  resendEmailConfirmation,
  updateProfile,
} = accountEndpoints;

export const currentUserQueryKey = [currentUser.path] as const;

/**
 * The signed-in user, or null when signed out. It asks "who am I" (200 with `user: null` for a visitor),
 * so that a signed-out page makes no request the browser reports as failed. The app asks for the user
 * again on every mount and window focus, so this query is always stale (the cached user is still shown
 * meanwhile, without a spinner). A failure stays an error, which callers also read as signed out.
 */
export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: async ({ signal }): Promise<User | null> => (await call(whoAmI, {}, { signal })).user,
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/**
 * A mutation that changes who is signed in, or the user's own details. It settles only once the current
 * user has been asked again (for whoever is showing it), so that a page navigated to afterwards sees the
 * new user.
 */
const useSessionMutation = <Body, Result>(mutationFn: (body: Body) => Promise<Result>) =>
  useRefreshingMutation(mutationFn, [currentUserQueryKey]);

export const useSignIn = () => useSessionMutation((body: LoginBody) => call(signIn, { body }));

/** What sign-up sends: the names as typed (a blank one is left out), which the server trims. */
type RegisterFields = CallParts<typeof register>['body'];

export const useCreateAccount = () => useSessionMutation((body: RegisterFields) => call(register, { body }));

/** Answers 202 whether or not the address has an account, so the answer never tells which. */
export const useRequestPasswordReset = () =>
  useMutation({
    mutationFn: (body: { email: string }) => call(requestPasswordReset, { body }),
  });

/** A new password ends every session of the account, this browser's included. */
export const useResetPassword = () =>
  useSessionMutation((body: { token: string; password: string }) => call(resetPassword, { body }));

/** Mails the e-mail confirmation link again (202); 409 once confirmed, 429 after 3 mails in an hour. */
export const useResendVerification = () =>
  useMutation({
    mutationFn: () => call(resendEmailConfirmation),
  });

export interface ProfileChanges {
  firstName: string;
  lastName: string;
}

/** Changes the user's names; the user is asked for again afterwards. */
export const useUpdateProfile = () =>
  useSessionMutation((changes: ProfileChanges) => call(updateProfile, { body: changes }));
