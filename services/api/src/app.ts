import fastifyCookie from '@fastify/cookie';
import type { Logger } from '@sniplink/platform';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { type AuthRoutesDeps, authRoutes } from './auth/routes';
import { checkReadiness, type ReadinessCheck } from './health/readiness';
import { registerErrorHandler } from './http/errors';
import { refuseForeignOrigins } from './http/origin';
import { registerWebApp } from './web';

export interface AppDeps {
  log: Logger;
  /** Named readiness checks: database, event store, click stream, projections. */
  readiness: Record<string, ReadinessCheck>;
  /** This site's origins (PUBLIC_URL, http://localhost:PORT, http://127.0.0.1:PORT). */
  allowedOrigins: string[];
  /** Take the client address from X-Forwarded-For (only behind a reverse proxy). */
  trustProxy?: boolean;
  /** The built web app (web/dist); absent in API-only processes. */
  webDistDir?: string;
  accounts?: AuthRoutesDeps;
}

const SERVER_PREFIXES = ['/api/', '/s/', '/healthz', '/readyz'];

/** Builds the HTTP app from explicit dependencies; `main.ts` only listens and closes. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    trustProxy: deps.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // Per-request log lines would cost the redirect path dearly; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerErrorHandler(app);
  refuseForeignOrigins(app, deps.allowedOrigins);
  await app.register(fastifyCookie);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const readiness = await checkReadiness(deps.readiness);
    return reply
      .code(readiness.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readiness);
  });
  if (deps.accounts) await authRoutes(app, deps.accounts);

  const renderPage = deps.webDistDir ? await registerWebApp(app, deps.webDistDir) : undefined;
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    const isPage = request.method === 'GET' && !SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
    if (isPage && renderPage) return renderPage(pathname, reply);
    return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such resource' });
  });
  return app;
}
