/**
 * Where "Login" and "Start Free" lead: navigations, not data calls. /api/login goes to the sign-in page
 * (or to the OpenID provider when one is configured), passing on `tab`, which opens the page's Create
 * account tab.
 */
export const createAccountTab = 'create';
export const signInHref = '/api/login';
export const createAccountHref = `/api/login?tab=${createAccountTab}`;
