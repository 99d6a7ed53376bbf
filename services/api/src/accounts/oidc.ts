import type {} from '@fastify/cookie';
import { DomainError } from '@sniplink/domain';
import type { Clock, Database } from '@sniplink/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import * as client from 'openid-client';
import { z } from 'zod';
import { bodiless, operation } from '../http/route-schema';
import type { AccountService } from './accounts';
import { type CookieSettings, SESSION_SET, safeReturnTo, startSession } from './current-session';
import type { SessionStore } from './sessions';

export const OIDC_CALLBACK_PATH = '/api/auth/callback';

export interface OidcLoginDeps {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone proves the code is ours). */
  clientSecret?: string | undefined;
  /** PUBLIC_URL + OIDC_CALLBACK_PATH, registered with the provider as is. */
  redirectUri: string;
  db: Kysely<Database>;
  accounts: AccountService;
  sessions: SessionStore;
  cookie: CookieSettings;
  /** A started sign-in's ten minutes are measured on it. */
  clock: Clock;
  /** As AccountRoutesDeps.afterSignIn: runs once the session is started. */
  afterSignIn?(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
}

export interface OidcLogin {
  /** Sends the browser to the provider; it comes back to OIDC_CALLBACK_PATH. */
  start(request: FastifyRequest, reply: FastifyReply, returnTo: string): Promise<FastifyReply>;
  /** Adds the callback route. */
  register(app: FastifyInstance): void;
}

/**
 * Why a sign-in was refused; the sign-in page shows a message for each (`/login?error=…`).
 * `verify-first`: a password account holds the address but has not confirmed it yet.
 */
type Refusal = 'oidc' | 'unverified' | 'verify-first' | 'suspended';

class SignInRefused extends Error {
  constructor(readonly reason: Refusal) {
    super(`OpenID Connect sign-in refused: ${reason}`);
  }
}

const SCOPE = 'openid email profile';
const LOGIN_TTL_MS = 10 * 60_000;
/**
 * Ties a started sign-in to the browser that started it. Without it, anyone could hand a victim the
 * callback URL of a sign-in they began themselves and sign the victim into the attacker's account.
 */
const STATE_COOKIE = 'oidc_state';

/** Sign-in through an OpenID Connect provider: authorization code with PKCE, accounts found by e-mail. */
export function createOidcLogin(deps: OidcLoginDeps): OidcLogin {
  const issuer = new URL(deps.issuer);
  if (issuer.protocol === 'http:' && !isLoopback(issuer.hostname)) {
    throw new Error('OIDC_ISSUER: a provider reached over plain http must be on a loopback address');
  }
  const discover = cachedDiscovery(issuer, deps.clientId, deps.clientSecret);
  const stateCookie = {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.cookie.secure,
    path: OIDC_CALLBACK_PATH,
  } as const;

  async function start(request: FastifyRequest, reply: FastifyReply, returnTo: string) {
    let configuration: client.Configuration;
    try {
      configuration = await discover();
    } catch (err) {
      request.log.error({ err }, 'OpenID Connect discovery failed');
      return refuse(reply, 'oidc');
    }
    const now = deps.clock.now();
    const login = {
      state: client.randomState(),
      code_verifier: client.randomPKCECodeVerifier(),
      nonce: client.randomNonce(),
      return_to: safeReturnTo(returnTo),
      expires_at: new Date(now.getTime() + LOGIN_TTL_MS),
    };
    // Abandoned sign-ins are swept here, so the table holds at most ten minutes of them.
    await deps.db.deleteFrom('oidc_logins').where('expires_at', '<', now).execute();
    await deps.db.insertInto('oidc_logins').values(login).execute();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: deps.redirectUri,
      scope: SCOPE,
      state: login.state,
      nonce: login.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(login.code_verifier),
      code_challenge_method: 'S256',
    });
    reply.setCookie(STATE_COOKIE, login.state, { ...stateCookie, maxAge: LOGIN_TTL_MS / 1000 });
    return reply.header('cache-control', 'no-store').redirect(url.href, 302);
  }

  /** Takes the sign-in this state names (once only), or undefined when unknown, expired or foreign. */
  async function takeLogin(request: FastifyRequest): Promise<PendingLogin | undefined> {
    const state = (request.query as Record<string, unknown>).state;
    if (typeof state !== 'string' || state !== request.cookies[STATE_COOKIE]) return undefined;
    const login = await deps.db
      .deleteFrom('oidc_logins')
      .where('state', '=', state)
      .returningAll()
      .executeTakeFirst();
    return login && login.expires_at.getTime() > deps.clock.now().getTime() ? login : undefined;
  }

  /** Redeems the code and answers what the provider says about the user. */
  async function identify(request: FastifyRequest, login: PendingLogin): Promise<Identity> {
    const configuration = await discover();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl(request), {
      pkceCodeVerifier: login.code_verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new SignInRefused('oidc');
    // Providers that issue an access token often keep the e-mail out of the ID token (OpenID Connect's
    // default): then it comes from the userinfo endpoint, checked to be about the same subject.
    const { issuer, userinfo_endpoint } = configuration.serverMetadata();
    if (idToken.email !== undefined || !userinfo_endpoint) return { issuer, claims: idToken };
    const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
    return { issuer, claims: { ...idToken, ...userInfo, sub: idToken.sub } };
  }

  /**
   * The account for this identity: a new one, or the one holding the address once its holder has
   * confirmed it (else whoever registered someone's address first would get that person's sign-ins).
   */
  async function accountFor({ issuer, claims }: Identity): Promise<string> {
    const email = text(claims.email);
    if (!email || claims.email_verified !== true) throw new SignInRefused('unverified');
    const { userId, created } = await deps.accounts.registerExternal({
      email,
      firstName: text(claims.given_name),
      lastName: text(claims.family_name),
      profileImageUrl: webUrl(claims.picture),
    });
    // Read from the user's stream, not the read model: a link opened a moment ago counts.
    if (!created && !(await deps.accounts.emailStatus(userId)).verified)
      throw new SignInRefused('verify-first');
    await deps.accounts.assertMaySignIn(userId);
    await deps.accounts.command(userId, {
      type: 'LinkIdentity',
      issuer,
      subjectHash: deps.accounts.subjectHash(issuer, claims.sub),
    });
    return userId;
  }

  function register(app: FastifyInstance): void {
    app.get(OIDC_CALLBACK_PATH, { schema: CALLBACK }, async (request, reply) => {
      reply.header('cache-control', 'no-store').clearCookie(STATE_COOKIE, stateCookie);
      const login = await takeLogin(request);
      if (!login) return refuse(reply, 'oidc');
      try {
        const userId = await accountFor(await identify(request, login));
        await startSession(request, reply, deps.sessions, userId, deps.cookie);
        await deps.afterSignIn?.(request, reply, userId);
        return reply.redirect(safeReturnTo(login.return_to), 302);
      } catch (error) {
        const reason = refusalOf(error);
        if (reason === 'oidc') request.log.warn({ err: error }, 'OpenID Connect sign-in failed');
        return refuse(reply, reason);
      }
    });
  }

  /** The public callback URL with this request's query: the redirect_uri sent back must match exactly. */
  function callbackUrl(request: FastifyRequest): URL {
    const url = new URL(deps.redirectUri);
    url.search = new URL(request.url, url).search;
    return url;
  }

  return { start, register };
}

type PendingLogin = Selectable<Database['oidc_logins']>;
interface Identity {
  issuer: string;
  claims: Record<string, unknown> & { sub: string };
}

/** Discovers the provider once; a failed discovery is tried again on the next sign-in. */
function cachedDiscovery(issuer: URL, clientId: string, clientSecret: string | undefined) {
  let pending: Promise<client.Configuration> | undefined;
  return (): Promise<client.Configuration> => {
    pending ??= client
      .discovery(
        issuer,
        clientId,
        clientSecret,
        // client_secret_basic is what a provider assumes when a client's registration names no method.
        clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
        // openid-client refuses plain http; a loopback provider (development, tests) is the one exception.
        issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
    return pending;
  };
}

function refusalOf(error: unknown): Refusal {
  if (error instanceof SignInRefused) return error.reason;
  if (error instanceof DomainError && error.code === 'ACCOUNT_SUSPENDED') return 'suspended';
  return 'oidc';
}

function refuse(reply: FastifyReply, reason: Refusal): FastifyReply {
  return reply.redirect(`/login?error=${reason}`, 302);
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A picture is shown as an image: only an http(s) URL of sane length is kept. */
function webUrl(value: unknown): string | null {
  return typeof value === 'string' && /^https?:\/\//i.test(value) && value.length <= 2_000 ? value : null;
}

const CALLBACK = operation({
  tag: 'Navigations',
  operationId: 'finishOidcSignIn',
  summary: "The OpenID Connect provider's answer (only when OIDC_ISSUER is set)",
  description: 'Signs in and goes to `returnTo`; a refused sign-in goes to `/login?error=…`.',
  querystring: z.looseObject({
    code: z.unknown().optional().describe('From the provider'),
    state: z.unknown().optional().describe('From the provider'),
  }),
  answers: {
    302: bodiless('Redirect', {
      Location: '`returnTo`, or `/login?error=…`',
      ...SESSION_SET,
    }),
  },
});
