import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  loginBody,
  okSchema,
  passwordResetBody,
  passwordResetConfirmBody,
  profileBody,
  registerBody,
  sessionsEndedSchema,
  userSchema,
} from './api';

/** Sign-up, sign-in, the current user, the profile, sign-out, the password reset and the e-mail confirmation. */
export const accountEndpoints = {
  register: endpoint('POST /api/auth/register', { 201: userSchema }, { body: registerBody }),
  signIn: endpoint('POST /api/auth/login', { 200: userSchema }, { body: loginBody }),
  currentUser: endpoint('GET /api/auth/user', { 200: userSchema }),
  whoAmI: endpoint('GET /api/auth/session', { 200: z.object({ user: userSchema.nullable() }) }),
  updateProfile: endpoint('PATCH /api/user/profile', { 200: userSchema }, { body: profileBody }),
  signOut: endpoint('POST /api/auth/logout', { 200: okSchema }),
  signOutEverywhere: endpoint('POST /api/auth/logout-all', { 200: sessionsEndedSchema }),
  requestPasswordReset: endpoint(
    'POST /api/auth/password-reset',
    { 202: okSchema },
    { body: passwordResetBody },
  ),
  resetPassword: endpoint(
    'POST /api/auth/password-reset/confirm',
    { 200: okSchema },
    { body: passwordResetConfirmBody },
  ),
  resendEmailConfirmation: endpoint('POST /api/auth/resend-verification', { 202: okSchema }),
};

/**
 * The addresses the browser navigates to rather than calls: they answer with a redirect (or a page), so the
 * web app takes only their URL, for a link or a full navigation.
 */
export const accountNavigations = {
  startSignIn: endpoint(
    'GET /api/login',
    { 302: z.null() },
    {
      querystring: z.object({
        returnTo: z
          .unknown()
          .optional()
          .describe('A path of this site to return to; anything else is replaced by `/`'),
        tab: z.unknown().optional().describe('`create` opens the sign-in page on its Create account tab'),
      }),
    },
  ),
  signOutPage: endpoint('GET /api/logout', { 200: z.string(), 302: z.null() }),
};
