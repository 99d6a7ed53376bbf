import { loginBody, profileBody, registerBody } from '@sniplink/contracts';
import { ForbiddenError, UnauthorizedError } from '@sniplink/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptEmptyForms } from '../http/content-type';
import { parseBody } from '../http/validate';
import type { AccountService } from './accounts';
import {
  type CookieSettings,
  endSession,
  requireSession,
  safeReturnTo,
  startSession,
} from './current-session';
import { type EmailVerificationDeps, emailVerificationRoutes } from './email-verification';
import { type PasswordResetDeps, passwordResetRoutes } from './password-reset';
import { SESSION_COOKIE, type SessionStore } from './sessions';
import { sendSignOutPage, sentByAnotherSite } from './sign-out-page';
import type { SignupThrottle } from './signup-throttle';

export interface AuthRoutesDeps {
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

/** Sign-up, sign-in, the current user, profile and sign-out (spec section 7; issue "Accounts"). */
export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps): Promise<void> {
  const { accounts, sessions, cookie } = deps;
  const verification = deps.emailVerification
    ? await emailVerificationRoutes(app, deps.emailVerification)
    : undefined;

  app.post('/api/auth/register', async (request, reply) => {
    const body = parseBody(registerBody, request.body);
    await deps.signupThrottle.count(request.ip);
    const userId = await accounts.register(body);
    await startSession(request, reply, sessions, userId, cookie);
    await deps.afterSignIn?.(request, reply, userId);
    // The account is made: a mail that cannot go out is logged, and can be asked for again.
    await verification?.sendLater(userId).catch((err: unknown) => {
      request.log.error({ err }, 'e-mail verification: no mail after sign-up');
    });
    return reply.code(201).send(await accounts.requireUser(userId));
  });

  app.post('/api/auth/login', async (request, reply) => {
    const body = parseBody(loginBody, request.body);
    const userId = await accounts.authenticate(body.email, body.password, request.ip);
    await startSession(request, reply, sessions, userId, cookie);
    await deps.afterSignIn?.(request, reply, userId);
    return reply.send(await accounts.requireUser(userId));
  });

  app.get('/api/auth/user', async (request, reply) => {
    const session = await requireSession(request, sessions);
    const user = await accounts.user(session.userId);
    if (!user) throw new UnauthorizedError();
    return reply.header('cache-control', 'no-store').send(user);
  });

  app.patch('/api/user/profile', async (request, reply) => {
    const session = await requireSession(request, sessions);
    const body = parseBody(profileBody, request.body);
    return reply.send(await accounts.updateProfile(session.userId, body));
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await endSession(request, reply, sessions, cookie);
    return reply.send({ ok: true });
  });

  app.post('/api/auth/logout-all', async (request, reply) => {
    const session = await requireSession(request, sessions);
    const ended = await sessions.destroyAllFor(session.userId);
    await endSession(request, reply, sessions, cookie);
    return reply.send({ ok: true, sessionsEnded: ended });
  });

  // Navigations (the browser goes there; they answer with redirects).
  app.get('/api/login', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const returnTo = safeReturnTo(query.returnTo);
    if (deps.oidc) return deps.oidc.start(request, reply, returnTo);
    return reply.redirect(signInPagePath(returnTo, query.tab), 302);
  });

  // A link on another site only shows "Sign out?"; its button posts here from this site.
  app.get('/api/logout', async (request, reply) => {
    if (sentByAnotherSite(request) && request.cookies[SESSION_COOKIE] !== undefined) {
      return sendSignOutPage(reply);
    }
    await endSession(request, reply, sessions, cookie);
    return reply.redirect('/', 302);
  });
  await app.register(async (form) => {
    acceptEmptyForms(form);
    form.post('/api/logout', async (request, reply) => {
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
