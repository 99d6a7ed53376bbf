import { accountNavigations, type User } from '@sniplink/contracts';
import { isRedirect } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../queryClient';
import { currentUserQueryKey } from './api';
import { loginHref, requireSignedInUser } from './useSignedInUser';

const { startSignIn } = accountNavigations;

const ada: User = {
  id: 'u1',
  firstName: 'Ada',
  lastName: null,
  email: 'ada@example.com',
  profileImageUrl: null,
  isAdmin: false,
  subscriptionStatus: 'active',
  subscriptionPlan: null,
  linksCreatedThisMonth: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  emailVerified: true,
  billing: { periodEnd: null, cancelAtPeriodEnd: false, paymentFailed: false, canManage: false },
  linkAllowance: { period: 'month', used: 0, limit: 500, remaining: 500 },
};

/** What the gate threw, or undefined when it let the visitor in. */
async function refusal(gate: Promise<User>): Promise<unknown> {
  return gate.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

describe('the authenticated layout gate', () => {
  it('lets a signed-in user in from the cache, without asking the server (no spinner)', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(currentUserQueryKey, ada);
    // There is no server here: a request would fail and read as signed out.
    expect(await requireSignedInUser(queryClient, '/home')).toEqual(ada);
  });

  it('sends a signed-out visitor to the login, which comes back to the page asked for', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(currentUserQueryKey, null);
    const thrown = await refusal(requireSignedInUser(queryClient, '/profile', true));
    expect(isRedirect(thrown)).toBe(true);
    const options = (thrown as { options: { href?: string; reloadDocument?: boolean } }).options;
    expect(options.href).toBe(`${startSignIn.path}?returnTo=%2Fprofile`);
    // A navigation to the server (which may lead to an OpenID provider), not a route of this app.
    expect(options.reloadDocument).toBe(true);
  });

  it('reads a user that cannot be loaded as signed out', async () => {
    const queryClient = createQueryClient();
    const thrown = await refusal(requireSignedInUser(queryClient, '/onboarding', true));
    expect(isRedirect(thrown)).toBe(true);
  });

  it('keeps the path of the page in the login address, encoded', () => {
    expect(loginHref('/home')).toBe(`${startSignIn.path}?returnTo=%2Fhome`);
  });
});
