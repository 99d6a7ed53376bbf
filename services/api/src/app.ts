import type { Logger } from '@sniplink/platform';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { checkReadiness, type ReadinessCheck } from './health/readiness';
import { registerWebApp } from './web';

export interface AppDeps {
  log: Logger;
  /** Named readiness checks: database, event store, click stream, projections. */
  readiness: Record<string, ReadinessCheck>;
  /** The built web app (web/dist); absent in API-only processes. */
  webDistDir?: string;
}

const SERVER_PREFIXES = ['/api/', '/s/', '/healthz', '/readyz'];

/** Builds the HTTP app from explicit dependencies; `server.ts`-style callers only listen and close. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    trustProxy: false,
    // Per-request log lines would cost the redirect path dearly; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
  });

  app.setErrorHandler(
    (error: { statusCode?: number; validation?: unknown; message: string }, request, reply) => {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'request failed');
      const code = error.validation ? 'VALIDATION_FAILED' : status === 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
      const message = status === 500 ? 'Something went wrong on our side' : error.message;
      return reply.code(status).send({ code, message });
    },
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const readiness = await checkReadiness(deps.readiness);
    return reply
      .code(readiness.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readiness);
  });

  const renderPage = deps.webDistDir ? await registerWebApp(app, deps.webDistDir) : undefined;
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    const isPage = request.method === 'GET' && !SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
    if (isPage && renderPage) return renderPage(pathname, reply);
    return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such resource' });
  });
  return app;
}
