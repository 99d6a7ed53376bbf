import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ClickBuffer } from './click-buffer';
import { describeClick } from './click-description';
import { clientAddress, type TrustedHop } from './client-address';
import type { LinkCache, RedirectTarget } from './link-cache';
import {
  answerControlled,
  answerPassword,
  type ControlledVisit,
  type ControlPages,
  type LinkControlsDeps,
} from './link-controls';
import { countRedirect } from './redirect-count';

export interface RedirectDeps {
  cache: LinkCache;
  clicks: ClickBuffer;
  /** Answers a code no live link has: the web app's not-found page, status 404. */
  notFound(reply: FastifyReply): FastifyReply;
  /** Answers an unclaimed demo link past its lifetime: a short page, status 410. */
  gone(reply: FastifyReply): FastifyReply;
  /** Answers a premium slug with no target yet: a short page, status 404. Absent: `notFound`. */
  unassigned?(reply: FastifyReply): FastifyReply;
  /** Answers a link or premium slug of a suspended account: a short page, status 403. Absent: `notFound`. */
  unavailable?(reply: FastifyReply): FastifyReply;
  /** Answers a code waiting for an admin's approval: a short page, status 423. Absent: `notFound`. */
  pendingApproval?(reply: FastifyReply): FastifyReply;
  /** Headers every redirect carries after its own (the app's security headers), the same on every path. */
  headers: RedirectHeaders;
  /** Options of the `/s/:code` route (the app's: no Helmet there, the redirect's headers are its own). */
  routeOptions?: RouteShorthandOptions;
  /** Options of the password form's `POST /s/:code` route. */
  passwordRouteOptions?: RouteShorthandOptions;
  /** What a link's controls (password, pause, expiry, click limit) need of the process. */
  controls: LinkControlsDeps;
  /** The pages a link's controls answer with. */
  controlPages: ControlPages;
}

/** Header names (lower-case) and values, written in this order after Location and Cache-Control. */
export type RedirectHeaders = Readonly<Record<string, string>>;

/** Longer than any code we issue; refuse before touching the cache. */
const MAX_CODE_LENGTH = 64;

/**
 * `GET /s/:code` -> 302 to the target (410 for an expired demo link, 403 for a suspended account's link). Registered on the root of the app,
 * outside the API's hooks (cookies, sessions, origin checks). A cached link is usually answered before
 * node parses the request (`answerRedirectsOnConnections`) or before Fastify sees it
 * (`createFastRedirect`); this route takes the rest: codes not cached yet, unknown and expired ones,
 * HEAD, prefetches, and paths with percent-encoding. HEAD and prefetches are redirected, not counted.
 */
export function registerRedirect(app: FastifyInstance, deps: RedirectDeps): void {
  const redirectHeaders = redirectHeadersWith(deps.headers);
  const controls = [deps.controls, deps.controlPages] as const;
  app.get<{ Params: { code: string } }>('/s/:code', deps.routeOptions ?? {}, (request, reply) => {
    const code = request.params.code;
    // U+0000 is in no code, and PostgreSQL text cannot hold it: the look-up would fail as a 500.
    if (code.length === 0 || code.length > MAX_CODE_LENGTH || code.includes('\u0000'))
      return deps.notFound(reply);
    const found = deps.cache.resolve(code);
    if (found === null) return deps.notFound(reply);
    if (!(found instanceof Promise)) return redirect(found);
    // A look-up that fails (the database down or restarting) cannot tell a link from an unknown code:
    // the visitor gets the not-found page, never an error body, and nothing is cached.
    return found.then(
      (target) => (target ? redirect(target) : deps.notFound(reply)),
      () => deps.notFound(reply),
    );

    function redirect(target: RedirectTarget) {
      if (target.controls)
        return answerControlled(target.controls, target.linkId, visit(target), ...controls);
      // An expired demo link is no click: the visitor lands on a page, not on the target.
      if (isExpired(target)) {
        if (target.suspended) return (deps.unavailable ?? deps.notFound)(reply);
        if (target.pendingApproval) return (deps.pendingApproval ?? deps.notFound)(reply);
        if (target.unassigned) return (deps.unassigned ?? deps.notFound)(reply);
        return deps.gone(reply);
      }
      const headers = request.raw.headers;
      if (request.method === 'GET' && !isSpeculative(headers)) {
        countClick(deps.clicks, target, code, headers['user-agent'], headers.referer, request.ip);
      }
      countRedirect();
      return reply.code(302).headers(redirectHeaders(target)).send();
    }

    function visit(target: RedirectTarget): ControlledVisit {
      return controlledVisit(request, reply, code, target, deps, redirectHeaders);
    }
  });
  registerPasswordForm(app, deps, redirectHeaders);
}

/**
 * `POST /s/:code`: the password page's form (`application/x-www-form-urlencoded`, field `password`). Its
 * own scope parses the form, so no other route accepts one.
 */
function registerPasswordForm(
  app: FastifyInstance,
  deps: RedirectDeps,
  redirectHeaders: (target: RedirectTarget) => OutgoingHttpHeaders,
): void {
  const controls = [deps.controls, deps.controlPages] as const;
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: PASSWORD_FORM_LIMIT },
      (_request, body, done) => done(null, new URLSearchParams(body as string)),
    );
    scope.post<{ Params: { code: string } }>(
      '/s/:code',
      deps.passwordRouteOptions ?? {},
      async (request, reply) => {
        const code = request.params.code;
        if (code.length === 0 || code.length > MAX_CODE_LENGTH || code.includes('\u0000'))
          return deps.notFound(reply);
        const target = await Promise.resolve(deps.cache.resolve(code)).catch(() => null);
        if (!target?.controls) return deps.notFound(reply);
        const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
        const password = form.get('password') ?? '';
        const visit = controlledVisit(request, reply, code, target, deps, redirectHeaders);
        return answerPassword(target.controls, target.linkId, password, visit, ...controls);
      },
    );
  });
}

/** A password is at most 128 characters: a form of a few KB holds it, whatever the encoding. */
const PASSWORD_FORM_LIMIT = 4096;

/** The visit of a controlled link: how it redirects to its target (counting the click) or elsewhere. */
function controlledVisit(
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
  target: RedirectTarget,
  { clicks, notFound }: Pick<RedirectDeps, 'clicks' | 'notFound'>,
  redirectHeaders: (target: RedirectTarget) => OutgoingHttpHeaders,
): ControlledVisit {
  const headers = request.raw.headers;
  // A form post is the visitor's own click, as a GET is; HEAD and prefetches are not clicks.
  const counted = request.method !== 'HEAD' && !isSpeculative(headers);
  return {
    request,
    reply,
    code,
    counted,
    redirect: (rule) => {
      if (counted)
        countClick(clicks, target, code, headers['user-agent'], headers.referer, request.ip, rule?.index);
      countRedirect();
      const sent = rule ? { ...target, target: rule.url } : target;
      return reply.code(302).headers(redirectHeaders(sent)).send();
    },
    redirectTo: (url) =>
      reply
        .code(302)
        .headers(redirectHeaders({ ...target, target: url }))
        .send(),
    failed: () => notFound(reply),
  };
}

/**
 * The redirect of a cached link on node's own request and response, before Fastify routes anything:
 * Fastify's request and reply objects, routing and hooks cost about as much as everything else a
 * redirect does. Answers a plain `GET /s/{code}` whose link is in the cache and returns true; returns
 * false, having touched nothing, for every other request (a prefetch, too), which then goes on to Fastify
 * as usual. Behind
 * `answerRedirectsOnConnections` it sees the cached links' redirects that one leaves to node (a request
 * split across reads, HTTP/1.0, `Connection: close`).
 */
export function createFastRedirect(deps: {
  cache: Pick<LinkCache, 'peek'>;
  clicks: ClickBuffer;
  /** TRUST_PROXY's hop test, the one Fastify's `request.ip` applies; undefined: no proxy is trusted. */
  trustedHop: TrustedHop | undefined;
  headers: RedirectHeaders;
}): (request: IncomingMessage, response: ServerResponse) => boolean {
  const redirectHeaders = redirectHeadersWith(deps.headers);
  return (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || !url.startsWith('/s/')) return false;
    const queryAt = url.indexOf('?', 3);
    const code = queryAt === -1 ? url.slice(3) : url.slice(3, queryAt);
    if (!PLAIN_CODE.test(code)) return false;
    const target = deps.cache.peek(code.toLowerCase());
    if (target === undefined || isExpired(target) || hasPurpose(request.headers)) return false;
    countClick(
      deps.clicks,
      target,
      code,
      request.headers['user-agent'],
      request.headers.referer,
      // node joins repeated X-Forwarded-For headers into one string (only Set-Cookie stays a list).
      clientAddress(
        deps.trustedHop,
        request.socket.remoteAddress,
        request.headers['x-forwarded-for'] as string,
      ),
    );
    response.writeHead(302, redirectHeaders(target));
    response.end();
    countRedirect();
    return true;
  };
}

/** What a code may look like on the fast path; anything else (percent-encoding, dots) goes to Fastify. */
const PLAIN_CODE = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * The headers that say a request is made ahead of a visit that may never come: `Sec-Purpose` (the
 * standard: `prefetch`, `prefetch;prerender`, … for speculation rules and `<link rel=prefetch>`),
 * `Purpose: prefetch` (Chrome's older header for `<link rel=prefetch>`), `X-Moz: prefetch` (Firefox's
 * before `Sec-Purpose`), `X-Purpose: preview` (Safari's page previews).
 */
const PURPOSE_HEADERS = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz'] as const;
const SPECULATIVE_PURPOSE = /^\s*(?:prefetch|preview)/i;

/**
 * Whether the request carries a purpose header at all: the fast path leaves those to the route. Spelled
 * out, as it runs on every redirect there: ~1 ns, where a loop over the names took ~60.
 */
function hasPurpose(headers: IncomingHttpHeaders): boolean {
  return (
    headers['sec-purpose'] !== undefined ||
    headers.purpose !== undefined ||
    headers['x-purpose'] !== undefined ||
    headers['x-moz'] !== undefined
  );
}

/** A prefetch or preview: redirected like any visit, but no one has clicked (yet), so not counted. */
export function isSpeculative(headers: IncomingHttpHeaders): boolean {
  return PURPOSE_HEADERS.some((name) => {
    const value = headers[name];
    return typeof value === 'string' && SPECULATIVE_PURPOSE.test(value);
  });
}

export function isExpired(target: RedirectTarget): boolean {
  return target.expiresAt !== undefined && target.expiresAt <= Date.now();
}

/** Queues the click of one redirect (the code as the visitor typed it). */
export function countClick(
  clicks: ClickBuffer,
  target: RedirectTarget,
  code: string,
  userAgent: string | undefined,
  referer: string | undefined,
  clientIp: string | undefined,
  rule?: number,
): void {
  clicks.push(
    describeClick({
      id: clickId(),
      linkId: target.linkId,
      code,
      atMs: Date.now(),
      userAgent,
      referer,
      clientIp,
      rule,
    }),
  );
}

/** A redirect the browser may not cache: every visit must reach us to be counted. */
export const REDIRECT_CACHE_CONTROL = 'private, no-store';

/** A redirect's headers, in the order the connection path writes them (`redirectResponseParts`). */
function redirectHeadersWith(headers: RedirectHeaders): (target: RedirectTarget) => OutgoingHttpHeaders {
  return (target) => ({
    location: target.target,
    'cache-control': REDIRECT_CACHE_CONTROL,
    ...headers,
    'content-length': 0,
  });
}

/**
 * Click ids: a random prefix drawn once per process, then a counter. Unique across processes and
 * restarts (72 random bits), and nearly free: a UUID per redirect cost ~2 % of the event loop and 36
 * bytes of every click in the log.
 */
const CLICK_ID_PREFIX = randomBytes(9).toString('base64url');
let clicksCounted = 0;
export function clickId(): string {
  clicksCounted += 1;
  return `${CLICK_ID_PREFIX}${clicksCounted.toString(36)}`;
}
