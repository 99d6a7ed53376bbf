import type {} from '@fastify/cookie';
import { UnauthorizedError } from '@sniplink/domain';
import { identifyActor } from '@sniplink/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { authenticateKey, type BearerKeys, hasBearer } from '../http/bearer';
import { declarationOf } from '../http/route-schema';
import { type ActiveSession, SESSION_COOKIE, type SessionStore } from './sessions';

const resolved = new WeakMap<FastifyRequest, Promise<ActiveSession | null>>();

/**
 * The request's session, looked up once per request and only by the routes that need it. A request with
 * an `Authorization: Bearer` header has none, whatever cookie it carries: a script's call is its key's.
 */
export function currentSession(
  request: FastifyRequest,
  sessions: SessionStore,
): Promise<ActiveSession | null> {
  let session = resolved.get(request);
  if (!session) {
    const cookie = hasBearer(request) ? undefined : request.cookies[SESSION_COOKIE];
    session = sessions.resolve(cookie).then((active) => {
      // The request is the signed-in user's doing: the events it appends record them as the actor.
      if (active) identifyActor(active.userId);
      return active;
    });
    resolved.set(request, session);
  }
  return session;
}

const checked = new WeakMap<FastifyRequest, ActiveSession>();

/**
 * Installs the check a route declares with `operation({ session: 'required' | 'admin' })`: no live session,
 * 401, before its body or query is looked at (a signed-out caller learns nothing of the rules). It runs
 * before the route's other `preValidation` hooks (the write limits count per user). An admin's route is
 * behind the admin gate as well, which answers first. Without a session store (a process without
 * signed-in routes) such a route is refused at start-up rather than served unchecked.
 *
 * A call with `Authorization: Bearer` is a script's: where the route declares `apiKey: scope`, a live key
 * with that scope stands in for the session (`authenticateKey`); on any other route, or without `keys`,
 * it is a 401, its cookie ignored.
 */
export function checkDeclaredSessions(
  app: FastifyInstance,
  sessions: SessionStore | undefined,
  keys?: BearerKeys,
): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const declared = declarationOf(route.schema);
    const session = declared?.session;
    if (session !== 'required' && session !== 'admin') return;
    if (!sessions) throw new Error(`${route.url} asks for a session, but no session store is given`);
    // Without a key store (a process or test without keys) every bearer call is a 401: closed, not unchecked.
    const scope = declared?.apiKey;
    const check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      if (hasBearer(request)) {
        if (!scope || !keys) throw new UnauthorizedError();
        const holder = await authenticateKey(request, reply, keys, scope);
        checked.set(request, { userId: holder.userId, idHash: `apikey:${holder.keyId}` });
        return;
      }
      const active = await currentSession(request, sessions);
      if (!active) throw new UnauthorizedError();
      checked.set(request, active);
    };
    route.preValidation = [check, ...[route.preValidation ?? []].flat()];
  });
}

/**
 * The signed-in caller's session, in a route that declares one (its check has let the request through).
 * A route that declares none gets a 500 here: a handler cannot read a session nobody checked.
 */
export function sessionOf(request: FastifyRequest): ActiveSession {
  const session = checked.get(request);
  if (!session) throw new Error(`${request.method} ${request.url} reads a session it does not declare`);
  return session;
}

export interface CookieSettings {
  secure: boolean;
}

/** What the document says of the cookie an answer that signs in sets. */
export const SESSION_SET = { 'Set-Cookie': '`sid`, the new session (HttpOnly, SameSite=Lax)' };

/** Signs the user in: any session the browser had is ended first (a new id at every sign-in). */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionStore,
  userId: string,
  cookie: CookieSettings,
): Promise<void> {
  await sessions.destroy(request.cookies[SESSION_COOKIE]);
  identifyActor(userId);
  const { token, maxAgeSeconds } = await sessions.create(userId, request.headers['user-agent']);
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export async function endSession(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionStore,
  cookie: CookieSettings,
) {
  await sessions.destroy(request.cookies[SESSION_COOKIE]);
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: cookie.secure, path: '/' });
}

/** A `returnTo` only ever leads to a path of this site ("/x"), never "//evil.example" or "https://…". */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2_000) return '/';
  if (
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\') ||
    hasControlCharacter(value)
  ) {
    return '/';
  }
  return value;
}

const hasControlCharacter = (value: string) => [...value].some((char) => char.charCodeAt(0) < 0x20);
