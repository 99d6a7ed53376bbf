import { runAs } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';

/**
 * Each API request handles its commands in a command context of its own (a new correlation id, shared
 * by every event the request appends). It starts as `anonymous`; looking up the session (or signing up,
 * or in) names the user. Entered after the body is parsed (a parser's stream callbacks would lose it) and
 * before a route's own `preValidation` hooks, where the session is looked up.
 */
export function runRequestsInCommandContext(api: FastifyInstance): void {
  api.addHook('preValidation', (_request, _reply, done) => {
    runAs('anonymous', done);
  });
}
