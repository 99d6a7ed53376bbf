import http from 'node:http';
import fastifyCookie from '@fastify/cookie';
import type { Logger, TrustProxy } from '@sniplink/platform';
import {
  answerRedirectsOnConnections,
  createFastRedirect,
  type RedirectDeps,
  registerRedirect,
  type TrustedHop,
  trustedHop,
} from '@sniplink/redirect';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerFactory,
  LogController,
} from 'fastify';
import { type AuthRoutesDeps, authRoutes } from './auth/routes';
import { sendExpiredDemoPage } from './demo/expired-page';
import { type DemoRoutesDeps, demoRoutes } from './demo/routes';
import { registerApiDocs } from './docs/routes';
import { checkReadiness, type ReadinessCheck } from './health/readiness';
import { acceptOnlyJsonBodies } from './http/content-type';
import { answerFrameworkError, registerErrorHandler } from './http/errors';
import { refuseForeignOrigins } from './http/origin';
import { type AnalyticsRoutesDeps, analyticsRoutes } from './links/analytics-routes';
import { type LinkRoutesDeps, linkRoutes } from './links/routes';
import { registerWebApp } from './web';

export interface AppDeps {
  log: Logger;
  /** Named readiness checks: database, event store, click stream, projections. */
  readiness: Record<string, ReadinessCheck>;
  /** This site's origins (PUBLIC_URL, http://localhost:PORT, http://127.0.0.1:PORT). */
  allowedOrigins: string[];
  /** TRUST_PROXY: which hops in front of the app are its own proxies (absent: none). */
  trustProxy?: TrustProxy;
  /** The built web app (web/dist); absent in API-only processes. */
  webDistDir?: string;
  /** PUBLIC_URL when the operator set one: pages then carry og:url and a canonical link. */
  publicUrl?: string;
  accounts?: AuthRoutesDeps;
  links?: LinkRoutesDeps;
  analytics?: AnalyticsRoutesDeps;
  /** `POST /api/demo/shorten`, `GET /api/demo/links`. */
  demo?: DemoRoutesDeps;
  /** `GET /s/:code`; absent in processes that do not redirect. */
  redirect?: Omit<RedirectDeps, 'notFound' | 'gone'>;
}

const SERVER_PREFIXES = ['/api/', '/s/', '/healthz', '/readyz'];

/** Builds the HTTP app from explicit dependencies; `main.ts` only listens and closes. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
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
    bodyLimit: 1024 * 1024,
    // Per-request log lines would cost the redirect path dearly; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // A path that is not valid percent-encoding: our error body, not Fastify's (which repeats the path).
    frameworkErrors: answerFrameworkError,
    serverFactory: deps.redirect ? redirectFirstServer(deps.redirect, trusted) : undefined,
  });
  registerErrorHandler(app);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const readiness = await checkReadiness(deps.readiness);
    return reply
      .code(readiness.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readiness);
  });

  const renderPage = deps.webDistDir
    ? await registerWebApp(app, deps.webDistDir, { publicUrl: deps.publicUrl })
    : undefined;
  // The redirect lives at the root, outside the API's hooks: no cookie parsing, no session, no origin check.
  if (deps.redirect) {
    registerRedirect(app, {
      ...deps.redirect,
      notFound: (reply) =>
        renderPage
          ? renderPage('/s/not-found', reply)
          : reply.code(404).send({ code: 'NOT_FOUND', message: 'No such short link' }),
      gone: sendExpiredDemoPage,
    });
  }
  await app.register(async (api) => {
    refuseForeignOrigins(api, deps.allowedOrigins);
    acceptOnlyJsonBodies(api);
    await api.register(fastifyCookie);
    registerApiDocs(api);
    if (deps.accounts) await authRoutes(api, deps.accounts);
    if (deps.links) await linkRoutes(api, deps.links);
    if (deps.analytics) await analyticsRoutes(api, deps.analytics);
    if (deps.demo) await demoRoutes(api, deps.demo);
  });
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    const isPage = request.method === 'GET' && !SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
    if (isPage && renderPage) return renderPage(pathname, reply);
    return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such resource' });
  });
  return app;
}

/**
 * An HTTP server that offers each request to the redirect's fast paths first and hands the rest to
 * Fastify, with the timeouts Fastify would have set on a server of its own: a cached link's redirect
 * is answered off the connection's bytes (`answerRedirectsOnConnections`), or else on node's request
 * (`createFastRedirect`: a request node has parsed, e.g. one split across reads).
 */
function redirectFirstServer(
  redirect: NonNullable<AppDeps['redirect']>,
  trustedHop: TrustedHop | undefined,
): FastifyServerFactory {
  const fastRedirect = createFastRedirect({ ...redirect, trustedHop });
  return (fastify) => {
    const server = http.createServer((request, response) => {
      if (!fastRedirect(request, response)) fastify(request, response);
    });
    // Fastify's defaults (we set none of these): keep-alive 72 s, no request or socket timeout.
    server.keepAliveTimeout = 72_000;
    server.requestTimeout = 0;
    server.setTimeout(0);
    answerRedirectsOnConnections(server, { ...redirect, trustedHop });
    return server;
  };
}
