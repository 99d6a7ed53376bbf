import fastifyCookie from '@fastify/cookie';
import { livenessSchema, readinessSchema } from '@sniplink/contracts';
import type { AccessLog, Logger, TrustProxy } from '@sniplink/platform';
import {
  type LinkControlsDeps,
  type RedirectDeps,
  type RedirectFastPath,
  registerRedirect,
  trustedHop,
} from '@sniplink/redirect';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { checkDeclaredSessions } from './accounts/current-session';
import type { SessionStore } from './accounts/sessions';
import { sendExpiredDemoPage } from './demo/expired-page';
import { collectOpenApi, serveOpenApi } from './docs/openapi';
import { checkReadiness, type ReadinessCheck } from './health/readiness';
import { logAccess } from './http/access-log';
import { JSON_BODY_LIMIT, limitBodiesInFlight } from './http/body-budget';
import { runRequestsInCommandContext } from './http/command-context';
import { acceptOnlyJsonBodies } from './http/content-type';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './http/errors';
import { type MetricsDeps, serveMetrics } from './http/metrics';
import { refuseForeignOrigins } from './http/origin';
import { bodiless, declareCommonErrors, json, operation, text } from './http/route-schema';
import { securityHeaders } from './http/security-headers';
import { appServer } from './http/server';
import { treatMissingBodiesAsEmpty, validatorCompiler } from './http/validate';
import { limitSignedInWrites, type WriteLimitsDeps } from './http/write-limits';
import { linkControlPages } from './links/control-pages';
import { sendUnavailableLinkPage } from './links/unavailable-page';
import { sendUnassignedPremiumPage } from './marketplace/unassigned-page';
import { type PageSeoSource, registerWebApp } from './web';

export interface AppDeps {
  log: Logger;
  /** Named readiness checks: database, event store, click stream, projections. */
  readiness: Record<string, ReadinessCheck>;
  /** This site's origins (PUBLIC_URL, http://localhost:PORT, http://127.0.0.1:PORT). */
  allowedOrigins: string[];
  /** TRUST_PROXY: which hops in front of the app are its own proxies (absent: none). */
  trustProxy?: TrustProxy;
  /** REQUEST_TIMEOUT_MS: a request whose head or body has not arrived this long after it began gets 408. */
  requestTimeoutMs?: number;
  /** REDIRECT_FAST_PATH (default on): `off` leaves every redirect to the Fastify route. */
  redirectFastPath?: RedirectFastPath;
  /** The built web app (web/dist); absent in API-only processes. */
  webDistDir?: string;
  /** PUBLIC_URL when the operator set one: pages then carry og:url and a canonical link. */
  publicUrl?: string;
  /** The SEO entries the pages carry instead of their own head tags (the seo feature's); absent: none. */
  pageSeo?: PageSeoSource;
  /** PUBLIC_URL is https: every answer tells the browser to come back over https only (HSTS). */
  https?: boolean;
  /** The web app may load Stripe.js (its CSP allows js.stripe.com): Stripe with a publishable key. */
  stripeJs?: boolean;
  /**
   * The features' routes under /api/ (accounts, links, analytics, demo…), in this order; which process
   * runs which is the composition root's choice (services/standalone/src/composition.ts).
   */
  routes?: readonly RouteGroup[];
  /** `GET /s/:code`; absent in processes that do not redirect. */
  redirect?: Omit<
    RedirectDeps,
    | 'notFound'
    | 'gone'
    | 'unassigned'
    | 'unavailable'
    | 'headers'
    | 'routeOptions'
    | 'passwordRouteOptions'
    | 'controls'
    | 'controlPages'
  > & { controls: Omit<LinkControlsDeps, 'secureCookie'> };
  /** The per-user counters of every signed-in state change; required by a process that serves one. */
  writeLimits?: WriteLimitsDeps;
  /** The sessions a route's declared session check looks up; required by a process with such routes. */
  sessions?: SessionStore;
  /** `GET /metrics` and the HTTP series (METRICS, METRICS_TOKEN); absent: no such route (404). */
  metrics?: MetricsDeps;
  /** ACCESS_LOG (default `errors`): which answered requests get a log line. */
  accessLog?: AccessLog;
}

/**
 * One feature's routes bound to their dependencies (`(api) => linkRoutes(api, deps)`), registered inside
 * the API's hooks: the origin check, JSON bodies, cookies and the command context.
 */
export type RouteGroup = (api: FastifyInstance) => Promise<void>;

const SERVER_PREFIXES = ['/api/', '/s/', '/healthz', '/readyz', '/metrics'];
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Builds the HTTP app from explicit dependencies; `main.ts` only listens and closes. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const security = securityHeaders(deps.https ?? false, deps.stripeJs ?? false);
  // One hop test for Fastify's `request.ip` (every rate limit's key) and the redirect's fast paths.
  const trusted = trustedHop(deps.trustProxy ?? { kind: 'none' });
  if (deps.trustProxy?.kind === 'every') {
    deps.log.warn(
      'TRUST_PROXY=true trusts every X-Forwarded-For address: any client can choose the address it is counted under (rate limits, countries). Set the number of proxies in front of the app (e.g. TRUST_PROXY=1) or their addresses instead',
    );
  }
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    trustProxy: trusted ?? false,
    bodyLimit: JSON_BODY_LIMIT,
    // Fastify's own two lines per request stay off: the access log (ACCESS_LOG, http/access-log.ts) writes
    // one, for the requests it is asked to.
    logController: new LogController({ disableRequestLogging: true }),
    // A path that is not valid percent-encoding: our error body, not Fastify's (which repeats the path).
    frameworkErrors: (error, request, reply) => answerFrameworkError(error, request, security.apply(reply)),
    // A request timed out (408), a head too large, malformed bytes: our error body, the connection closed.
    clientErrorHandler: answerClientError,
    serverFactory: appServer({
      redirect: deps.redirect && { ...deps.redirect, headers: security.redirect },
      trustedHop: trusted,
      requestTimeoutMs: deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      fastPath: deps.redirectFastPath ?? 'on',
      log: deps.log,
    }),
  });
  registerErrorHandler(app);
  logAccess(app, deps.accessLog ?? 'errors', deps.log);
  if (deps.metrics) serveMetrics(app, deps.metrics);
  await security.register(app);
  // Every route's request parts and answers are declared once, in zod (http/route-schema.ts).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  declareCommonErrors(app);
  checkDeclaredSessions(app, deps.sessions);
  limitSignedInWrites(app, deps.writeLimits);
  await collectOpenApi(app);

  app.get('/healthz', { schema: HEALTHZ }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { schema: READYZ }, async (_request, reply) => {
    const readiness = await checkReadiness(deps.readiness);
    return reply
      .code(readiness.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readiness);
  });

  const renderPage = deps.webDistDir
    ? await registerWebApp(app, deps.webDistDir, { publicUrl: deps.publicUrl, seo: deps.pageSeo })
    : undefined;
  // The redirect lives at the root, outside the API's hooks: no cookie parsing, no session, no origin check.
  // Its 302 carries the redirect's headers, as on the fast paths; its pages get Helmet's.
  if (deps.redirect) {
    registerRedirect(app, {
      ...deps.redirect,
      headers: security.redirect,
      routeOptions: { config: { securityHeaders: false }, schema: REDIRECT },
      passwordRouteOptions: { config: { securityHeaders: false }, schema: LINK_PASSWORD },
      notFound: (reply) =>
        renderPage
          ? renderPage('/s/not-found', security.apply(reply))
          : security.apply(reply).code(404).send({ code: 'NOT_FOUND', message: 'No such short link' }),
      gone: (reply) => sendExpiredDemoPage(security.apply(reply)),
      unassigned: (reply) => sendUnassignedPremiumPage(security.apply(reply)),
      unavailable: (reply) => sendUnavailableLinkPage(security.apply(reply)),
      // The password cookie is Secure where the site is https, as the session cookie is.
      controls: { ...deps.redirect.controls, secureCookie: deps.https ?? false },
      controlPages: linkControlPages((reply) => security.apply(reply)),
    });
  }
  await app.register(async (api) => {
    refuseForeignOrigins(api, deps.allowedOrigins);
    acceptOnlyJsonBodies(api);
    limitBodiesInFlight(api);
    runRequestsInCommandContext(api);
    treatMissingBodiesAsEmpty(api);
    await api.register(fastifyCookie);
    await serveOpenApi(api);
    for (const routes of deps.routes ?? []) await routes(api);
  });
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    const isPage = request.method === 'GET' && !SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
    if (isPage && renderPage) return renderPage(pathname, reply);
    return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such resource' });
  });
  return app;
}

const HEALTHZ = operation({
  tag: 'Health',
  operationId: 'liveness',
  summary: 'The process is up',
  answers: { 200: json('Alive', livenessSchema) },
});

const READYZ = operation({
  tag: 'Health',
  operationId: 'readiness',
  summary: 'Every dependency answers',
  answers: {
    200: json('Ready', readinessSchema),
    503: json('A check failed; the same report names it', readinessSchema),
  },
});

const REDIRECT = operation({
  tag: 'Redirect',
  operationId: 'followShortLink',
  summary: 'Follow a short link',
  answers: {
    302: bodiless('To the target', { Location: 'The target URL' }),
    403: text('A password-protected link: the password form (docs/links.md)', 'text/html'),
    404: text(
      "No live link has this code: the web app's not-found page; a paused link: its page",
      'text/html',
    ),
    410: text(
      "A visitor's demo link past its 7 days, or an expired link without a fallback: a short page",
      'text/html',
    ),
    429: text('Too many wrong passwords for this link from this address (Retry-After)', 'text/html'),
  },
  // A code that is not valid percent-encoding, or longer than 100 characters: refused before any look-up.
  errors: { 400: ['BAD_REQUEST'], 414: ['BAD_REQUEST'] },
});

const LINK_PASSWORD = operation({
  tag: 'Redirect',
  operationId: 'unlockShortLink',
  summary:
    "A password-protected link's form: the password, as `application/x-www-form-urlencoded` field `password`",
  answers: {
    302: bodiless('The right password: to the target, with the cookie that remembers it for a day', {
      Location: 'The target URL',
      'Set-Cookie': 'sniplink_pw, scoped to /s/{code}',
    }),
    403: text('A wrong password: the form again, saying so', 'text/html'),
    404: text('No live link with a password has this code', 'text/html'),
    410: text('The link has expired (no fallback)', 'text/html'),
    429: text('Too many wrong passwords for this link from this address (Retry-After)', 'text/html'),
  },
  errors: { 400: ['BAD_REQUEST'], 414: ['BAD_REQUEST'] },
});
