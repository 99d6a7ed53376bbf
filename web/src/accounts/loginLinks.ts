import { accountNavigations } from '@sniplink/contracts';
import { urlOf } from '../api/client';

const { startSignIn, signOutPage } = accountNavigations;

/**
 * Where "Login" and "Start Free" lead: navigations, not data calls. The sign-in address goes to the sign-in
 * page (or to the OpenID provider when one is configured), passing on `tab`, which opens the page's Create
 * account tab.
 */
export const createAccountTab = 'create';
export const signInHref = urlOf(startSignIn);
export const createAccountHref = urlOf(startSignIn, { query: { tab: createAccountTab } });

/** "Logout": a navigation that ends the session and lands on the home page. */
export const signOutHref = urlOf(signOutPage);
