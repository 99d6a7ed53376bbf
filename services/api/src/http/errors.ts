import type { Socket } from 'node:net';
import type { ErrorBody } from '@sniplink/contracts';
import { DomainError, RateLimitedError } from '@sniplink/domain';
import { ConcurrencyExhaustedError, isDatabaseUnavailable } from '@sniplink/platform';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const refusal = (status: number, code: ErrorBody['code'], message: string) => ({
  status,
  body: { code, message },
});

/** Fastify's own client errors, with messages that never repeat what the client sent. */
const FRAMEWORK_ERRORS: Record<string, { status: number; body: ErrorBody }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: refusal(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: refusal(415, 'BAD_REQUEST', 'Send the request body as application/json'),
  FST_ERR_CTP_EMPTY_JSON_BODY: refusal(400, 'BAD_REQUEST', 'The request body is empty'),
  FST_ERR_CTP_INVALID_JSON_BODY: refusal(400, 'BAD_REQUEST', 'The request body is not valid JSON'),
};

/**
 * One error handler for the whole API: domain errors carry their status and code; a database that cannot
 * be reached is a 503 with Retry-After; the rest is a 500.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof DomainError) {
      if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
      const body: ErrorBody = { code: error.code, message: error.message };
      if (error.field) body.field = error.field;
      return sendError(reply, error.status, { ...error.details, ...body });
    }
    if (error instanceof ConcurrencyExhaustedError) {
      return sendError(reply, 503, {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is busy; please try again',
      });
    }
    if (isDatabaseUnavailable(error)) {
      // The server is down or restarting (the embedded one is started again by the app): say when to
      // come back rather than 500. Not logged per request: the server's exit and restart are.
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(reply, 503, DATABASE_UNAVAILABLE);
    }
    const known = 'code' in error ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendError(reply, known.status, known.body);
    const status = 'statusCode' in error ? error.statusCode : undefined;
    if (status && status >= 400 && status < 500) {
      return sendError(reply, status, {
        code: 'BAD_REQUEST',
        message: 'The request could not be understood',
      });
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, INTERNAL_ERROR);
  });
}

/**
 * An error body goes out as the text it is: the route's schema for the status documents the codes a
 * client may meet, but an error is never run through it (a code it does not list must not become a 500).
 */
function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** About what a restart of the embedded server takes (its first attempt comes after half a second). */
const DATABASE_RETRY_AFTER_SECONDS = 5;
const DATABASE_UNAVAILABLE: ErrorBody = {
  code: 'SERVICE_UNAVAILABLE',
  message: 'The database is not reachable right now; please try again in a few seconds',
};

const INTERNAL_ERROR: ErrorBody = { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side' };

/**
 * Fastify's `frameworkErrors`: what it answers before any route or error handler runs (a path that is not
 * valid percent-encoding, a path parameter over 100 characters). Its own bodies repeat what the client sent
 * and are not in our shape; these are.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) {
    request.log.error({ err: error }, 'request failed before routing');
    return reply.code(500).send(INTERNAL_ERROR);
  }
  return reply.code(status).send({ code: 'BAD_REQUEST', message: 'The request address is not valid' });
}

/** What node's server reports before a request reaches Fastify, and our answer to each (node's statuses). */
const CONNECTION_ERRORS: Record<string, { status: string; body: ErrorBody }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: '408 Request Timeout',
    body: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' },
  },
  HPE_HEADER_OVERFLOW: {
    status: '431 Request Header Fields Too Large',
    body: { code: 'BAD_REQUEST', message: 'The request headers are too large' },
  },
};
const MALFORMED: { status: string; body: ErrorBody } = {
  status: '400 Bad Request',
  body: { code: 'BAD_REQUEST', message: 'The request could not be understood' },
};

/**
 * Fastify's `clientErrorHandler`: a request node could not take (a head or body not complete within
 * REQUEST_TIMEOUT_MS, a head too large, malformed bytes) gets our error body and the connection is closed.
 * As node's own handler, it writes nothing when a response is already on its way on the connection
 * (Fastify's default would write into it).
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, body } = CONNECTION_ERRORS[error.code] ?? MALFORMED;
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
