import { accountEndpoints, accountNavigations, userSchema } from '@sniplink/contracts';
import { ForbiddenError, UnauthorizedError } from '@sniplink/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { acceptEmptyForms } from '../http/content-type';
import { bodiless, featureRoutes, json, operation, text } from '../http/route-schema';
import type { AccountService } from './accounts';
import {
  type CookieSettings,
  currentSession,
  endSession,
  SESSION_SET,
  safeReturnTo,
  sessionOf,
  startSession,
} from './current-session';
import { type EmailVerificationDeps, emailVerificationRoutes } from './email-verification';
import { type PasswordResetDeps, passwordResetRoutes } from './password-reset';
import { SESSION_COOKIE, type SessionStore } from './sessions';
import { sendSignOutPage, sentByAnotherSite } from './sign-out-page';
import type { SignupThrottle } from './signup-throttle';

export interface AccountRoutesDeps {
  accounts: AccountService;
  sessions: SessionStore;
  cookie: CookieSettings;
  /** Sign-ups per client address. */
  signupThrottle: SignupThrottle;
  /** Starts an OpenID Connect sign-in when a provider is configured (GET /api/login leads there). */
  oidc?: {
    start(request: FastifyRequest, reply: FastifyReply, returnTo: string): Promise<FastifyReply>;
    /** Adds the route the provider sends the browser back to. */
    register(app: FastifyInstance): void;
  };
  /** Password reset by e-mail; absent: the routes do not exist. */
  passwordReset?: PasswordResetDeps;
  /** The confirmation mail at sign-up, its link and "send it again"; absent: none of them. */
  emailVerification?: EmailVerificationDeps;
  /** Runs once a sign-up or sign-in has its session (the demo claims the visitor's links here). */
  afterSignIn?(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
}

const route = featureRoutes(accountEndpoints, { tag: 'Accounts' });
const { startSignIn, signOutPage } = accountNavigations;

/** Sign-up, sign-in, the current user, profile and sign-out. */
export async function accountRoutes(app: FastifyInstance, deps: AccountRoutesDeps): Promise<void> {
  const { accounts, sessions, cookie } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const verification = deps.emailVerification
    ? await emailVerificationRoutes(app, deps.emailVerification)
    : undefined;

  api.route({
    ...REGISTER,
    handler: async (request, reply) => {
      await deps.signupThrottle.count(request.ip);
      const userId = await accounts.register(request.body);
      await startSession(request, reply, sessions, userId, cookie);
      await deps.afterSignIn?.(request, reply, userId);
      // The account is made: a mail that cannot go out is logged, and can be asked for again.
      await verification?.sendLater(userId).catch((err: unknown) => {
        request.log.error({ err }, 'e-mail verification: no mail after sign-up');
      });
      return reply.code(201).send(await accounts.requireUser(userId));
    },
  });

  api.route({
    ...LOGIN,
    handler: async (request, reply) => {
      const userId = await accounts.authenticate(request.body.email, request.body.password, request.ip);
      await startSession(request, reply, sessions, userId, cookie);
      await deps.afterSignIn?.(request, reply, userId);
      return reply.send(await accounts.requireUser(userId));
    },
  });

  api.route({
    ...CURRENT_USER,
    handler: async (request, reply) => {
      const session = sessionOf(request);
      const user = await accounts.user(session.userId);
      if (!user) throw new UnauthorizedError();
      return reply.header('cache-control', 'no-store').send(user);
    },
  });

  api.route({
    ...WHO_AM_I,
    handler: async (request, reply) => {
      const session = await currentSession(request, sessions);
      const user = session ? await accounts.user(session.userId) : null;
      return reply.header('cache-control', 'no-store').send({ user: user ?? null });
    },
  });

  api.route({
    ...PROFILE,
    handler: async (request, reply) => {
      const session = sessionOf(request);
      return reply.send(await accounts.updateProfile(session.userId, request.body));
    },
  });

  api.route({
    ...LOGOUT,
    handler: async (request, reply) => {
      await endSession(request, reply, sessions, cookie);
      return reply.send({ ok: true });
    },
  });

  api.route({
    ...LOGOUT_ALL,
    handler: async (request, reply) => {
      const session = sessionOf(request);
      const ended = await sessions.destroyAllFor(session.userId);
      await endSession(request, reply, sessions, cookie);
      return reply.send({ ok: true, sessionsEnded: ended });
    },
  });

  // Navigations (the browser goes there; they answer with redirects).
  api.get(startSignIn.path, { schema: SIGN_IN_NAVIGATION }, async (request, reply) => {
    const returnTo = safeReturnTo(request.query.returnTo);
    if (deps.oidc) return deps.oidc.start(request, reply, returnTo);
    return reply.redirect(signInPagePath(returnTo, request.query.tab), 302);
  });

  // A link on another site only shows "Sign out?"; its button posts here from this site.
  api.get(signOutPage.path, { schema: SIGN_OUT_NAVIGATION }, async (request, reply) => {
    if (sentByAnotherSite(request) && request.cookies[SESSION_COOKIE] !== undefined) {
      return sendSignOutPage(reply);
    }
    await endSession(request, reply, sessions, cookie);
    return reply.redirect('/', 302);
  });
  await app.register(async (form) => {
    acceptEmptyForms(form);
    form.post(signOutPage.path, { schema: SIGN_OUT_FORM }, async (request, reply) => {
      // The origin check refuses another site's Origin; a browser that sends only Sec-Fetch-Site is refused here.
      if (sentByAnotherSite(request)) {
        throw new ForbiddenError('FORBIDDEN_ORIGIN', 'Requests from other sites are not accepted');
      }
      await endSession(request, reply, sessions, cookie);
      return reply.redirect('/', 303);
    });
  });

  if (deps.passwordReset) await passwordResetRoutes(app, deps.passwordReset);

  deps.oidc?.register(app);
}

/** The sign-in page, coming back to `returnTo`; `tab=create` ("Start Free") opens its Create account tab. */
function signInPagePath(returnTo: string, tab: unknown): string {
  const search = [
    ...(returnTo === '/' ? [] : [`returnTo=${encodeURIComponent(returnTo)}`]),
    ...(tab === 'create' ? ['tab=create'] : []),
  ];
  return search.length === 0 ? '/login' : `/login?${search.join('&')}`;
}

const NAVIGATIONS = 'Navigations';
const userWithSession = (description: string) => json(description, userSchema, SESSION_SET);

const REGISTER = route('register', {
  summary: 'Create a password account and sign in',
  description: 'Attempts are counted per client address (SIGNUP_MAX_PER_IP); past the limit: 429.',
  answers: { 201: userWithSession('The new user') },
  errors: { 409: ['EMAIL_TAKEN'], 429: ['RATE_LIMITED'] },
});

const LOGIN = route('signIn', {
  summary: 'Sign in with e-mail and password',
  description:
    'Failed sign-ins are counted per client address and per account at one address (past the limit: 429), ' +
    'and per account across addresses, which only slows its answers down (at most 3 s).',
  answers: { 200: userWithSession('The user') },
  errors: { 401: ['INVALID_CREDENTIALS'], 403: ['ACCOUNT_SUSPENDED'], 429: ['RATE_LIMITED'] },
});

const CURRENT_USER = route('currentUser', {
  summary: 'The signed-in user',
  session: 'required',
  answers: { 200: 'The user' },
});

const WHO_AM_I = route('whoAmI', {
  summary: 'Who is signed in, if anyone',
  description:
    'The signed-in user, or `user: null` for a caller without a live session: the question a page asks on ' +
    'every visit, answered 200 either way (a browser logs a 401 as a failed request). ' +
    '`GET /api/auth/user` answers the same user, and 401 when signed out.',
  session: 'optional',
  answers: { 200: '`{ user }`: the user, or null when signed out' },
});

const PROFILE = route('updateProfile', {
  summary: 'Change first and last name',
  description: 'An absent field is unchanged; blank or null clears it; other fields are ignored.',
  session: 'required',
  answers: { 200: 'The user' },
});

const LOGOUT = route('signOut', {
  summary: 'End this session',
  session: 'optional',
  answers: { 200: 'Signed out (the cookie is cleared)' },
});

const LOGOUT_ALL = route('signOutEverywhere', {
  summary: 'End every session of the account',
  session: 'required',
  answers: { 200: 'How many sessions ended' },
});

const SIGN_IN_NAVIGATION = operation({
  tag: NAVIGATIONS,
  operationId: 'startSignIn',
  summary: 'Start signing in (a browser navigation)',
  description: 'To the OpenID Connect provider when one is configured, else to the sign-in page.',
  querystring: startSignIn.querystring,
  answers: { 302: bodiless('Redirect', { Location: 'The provider, or `/login`' }) },
});

const SIGN_OUT_NAVIGATION = operation({
  tag: NAVIGATIONS,
  operationId: 'signOutPage',
  summary: 'Sign out (a browser navigation)',
  description:
    'Sent by another site (`Sec-Fetch-Site: cross-site` or `same-site`) to a signed-in browser: the ' +
    '"Sign out?" page instead, nothing ended; its button posts to `POST /api/logout`.',
  session: 'optional',
  answers: {
    200: text('The "Sign out?" page', 'text/html'),
    302: bodiless('Redirect', { Location: '`/`' }),
  },
});

const SIGN_OUT_FORM = operation({
  tag: NAVIGATIONS,
  operationId: 'confirmSignOut',
  summary: 'Sign out (the "Sign out?" button, a form of this site)',
  description:
    'Takes the empty form body; `Sec-Fetch-Site: cross-site` or `same-site` is refused like a foreign Origin.',
  session: 'optional',
  answers: { 303: bodiless('Redirect', { Location: '`/`' }) },
});
