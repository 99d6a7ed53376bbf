import { randomBytes } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSettings } from '../accounts/current-session';

/** The anonymous visitor's id: their demo links belong to `visitor-{id}` until a sign-up claims them. */
export const VISITOR_COOKIE = 'visitor';
const VISITOR_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** 16 random bytes, base64url: exactly what we hand out, so anything else is ignored. */
const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/;

export const visitorOwnerId = (visitorId: string) => `visitor-${visitorId}`;

/** The visitor id the browser sent, or undefined when it sent none or one we never issued. */
export function readVisitorId(request: FastifyRequest): string | undefined {
  const value = request.cookies[VISITOR_COOKIE];
  return value !== undefined && VISITOR_ID.test(value) ? value : undefined;
}

/** The browser's visitor id, a fresh one when it has none; the cookie is (re)set for another 30 days. */
export function visitorIdFor(request: FastifyRequest, reply: FastifyReply, cookie: CookieSettings): string {
  const visitorId = readVisitorId(request) ?? randomBytes(16).toString('base64url');
  reply.setCookie(VISITOR_COOKIE, visitorId, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
    path: '/',
    maxAge: VISITOR_MAX_AGE_SECONDS,
  });
  return visitorId;
}
