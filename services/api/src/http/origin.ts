import type { FastifyInstance } from 'fastify';
import { hasBearer } from './bearer';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a page of another site sent: its Origin header names a site
 * that is not this one. Requests without Origin (curl, server-side clients) pass; cookies are
 * SameSite=Lax besides. A bearer call passes too: its cookies never authenticate it, and a page of another
 * site cannot make a browser send a key it does not hold.
 */
export function refuseForeignOrigins(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || hasBearer(request)) return;
    const origin = request.headers.origin;
    if (origin === undefined || allowed.has(origin)) return;
    return reply
      .code(403)
      .send({ code: 'FORBIDDEN_ORIGIN', message: 'Requests from other sites are not accepted' });
  });
}
