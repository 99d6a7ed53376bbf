import http from 'node:http';
import type { Logger } from '@sniplink/platform';
import {
  createFastRedirect,
  offerRedirectsOnConnections,
  type RedirectDeps,
  type RedirectFastPath,
  type TrustedHop,
} from '@sniplink/redirect';
import type { FastifyServerFactory } from 'fastify';

export interface ServerOptions {
  /** The redirect's fast paths; absent in processes that do not redirect. */
  redirect?: Pick<RedirectDeps, 'cache' | 'clicks' | 'headers'>;
  /** REDIRECT_FAST_PATH: `off` leaves every redirect to the Fastify route. */
  fastPath: RedirectFastPath;
  /** Says once at start-up when the redirect's fast paths are off, and why. */
  log: Pick<Logger, 'info' | 'warn'>;
  /** TRUST_PROXY's hop test (undefined: no proxy trusted), the one Fastify's `request.ip` applies. */
  trustedHop: TrustedHop | undefined;
  /** REQUEST_TIMEOUT_MS: a request whose head or body is not complete this long after it began gets 408. */
  requestTimeoutMs: number;
}

/**
 * The app's HTTP server. A request whose head or body has not fully arrived `requestTimeoutMs` after its
 * first byte is answered 408 and its connection closed (node's `requestTimeout`; Fastify's
 * `clientErrorHandler` writes the answer): without it a client that declares a body and stops sending
 * holds its connection, and whatever part of the body it sent, for good. Only the arrival is timed: a
 * handler that takes long is not cut off.
 *
 * With a redirect and REDIRECT_FAST_PATH on, each request is offered to its fast paths first and the rest
 * handed to Fastify: a cached link's redirect is answered off the connection's bytes (connection-redirect.ts,
 * the one module that uses node's internals; left out, with a log line, when they are missing), or else on
 * node's request (`createFastRedirect`: public API only, e.g. a request split across reads). The connection
 * path gives node every request that is not complete in what it read, so node's timeout covers a head that
 * stalls there too. With REDIRECT_FAST_PATH off, the Fastify route answers every redirect.
 */
export function appServer(options: ServerOptions): FastifyServerFactory {
  const { redirect, trustedHop, requestTimeoutMs, fastPath, log } = options;
  return (fastify) => {
    const fastRedirect = redirect && fastPath === 'on' && createFastRedirect({ ...redirect, trustedHop });
    const server = http.createServer(
      { connectionsCheckingInterval: checkingIntervalMs(requestTimeoutMs) },
      fastRedirect
        ? (request, response) => {
            if (!fastRedirect(request, response)) fastify(request, response);
          }
        : fastify,
    );
    // Fastify's keep-alive (72 s); no socket timeout: an idle connection ends with keep-alive.
    server.keepAliveTimeout = 72_000;
    server.requestTimeout = requestTimeoutMs;
    server.headersTimeout = requestTimeoutMs;
    server.setTimeout(0);
    if (redirect)
      offerRedirectsOnConnections(server, { ...redirect, trustedHop }, { setting: fastPath, log });
    return server;
  };
}

/**
 * How often node looks for requests past their time (its default, 30 s, would let one live up to twice
 * REQUEST_TIMEOUT_MS): a quarter of the timeout, at most a second. A look walks only the requests still
 * arriving.
 */
function checkingIntervalMs(requestTimeoutMs: number): number {
  return Math.max(10, Math.min(1_000, Math.floor(requestTimeoutMs / 4)));
}
