import type { AccessLog, Logger } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import { routeOf } from './metrics';

/**
 * ACCESS_LOG: one JSON line per answered request, in the app's log (`msg` "request"): its id, method,
 * route pattern (never the raw URL, which may carry a reset token or a code), status and milliseconds.
 * `errors` logs the failed ones: every 5xx and every 4xx but 404, which scanners and dead links send by
 * the thousand and which say nothing about the app; `all` logs every one. The redirect's fast paths never
 * reach Fastify, so `all` turns them off (composition.ts): every redirect then gets its line.
 */
export function logAccess(app: FastifyInstance, setting: AccessLog, log: Logger): void {
  if (setting === 'off') return;
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    if (setting === 'all' || status >= 500 || (status >= 400 && status !== 404)) {
      const line = {
        reqId: request.id,
        method: request.method,
        route: routeOf(request),
        status,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      };
      if (status >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    }
    done();
  });
}
