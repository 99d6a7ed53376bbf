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
  register: endpoint('POST /api/auth/register', { body: registerBody, answers: { 201: userSchema } }),
  signIn: endpoint('POST /api/auth/login', { body: loginBody, answers: { 200: userSchema } }),
  currentUser: endpoint('GET /api/auth/user', { answers: { 200: userSchema } }),
  updateProfile: endpoint('PATCH /api/user/profile', { body: profileBody, answers: { 200: userSchema } }),
  signOut: endpoint('POST /api/auth/logout', { answers: { 200: okSchema } }),
  signOutEverywhere: endpoint('POST /api/auth/logout-all', { answers: { 200: sessionsEndedSchema } }),
  requestPasswordReset: endpoint('POST /api/auth/password-reset', {
    body: passwordResetBody,
    answers: { 202: okSchema },
  }),
  resetPassword: endpoint('POST /api/auth/password-reset/confirm', {
    body: passwordResetConfirmBody,
    answers: { 200: okSchema },
  }),
  resendEmailConfirmation: endpoint('POST /api/auth/resend-verification', { answers: { 202: okSchema } }),
};

/**
 * The addresses the browser navigates to rather than calls: they answer with a redirect (or a page), so the
 * web app takes only their URL, for a link or a full navigation.
 */
export const accountNavigations = {
  startSignIn: endpoint('GET /api/login', {
    querystring: z.object({
      returnTo: z
        .unknown()
        .optional()
        .describe('A path of this site to return to; anything else is replaced by `/`'),
      tab: z.unknown().optional().describe('`create` opens the sign-in page on its Create account tab'),
    }),
    answers: { 302: z.null() },
  }),
  signOutPage: endpoint('GET /api/logout', { answers: { 200: z.string(), 302: z.null() } }),
};
