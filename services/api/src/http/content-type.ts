import type { FastifyInstance } from 'fastify';

/**
 * The API's routes take JSON bodies only; any other body is a 415 and reaches no handler. Fastify also
 * parses text/plain by default, which handed routes a string. Refusing it matters beyond tidiness:
 * text/plain, like form and multipart bodies (which have no parser), is what a page of another site can
 * POST without a CORS preflight, so such a request changes nothing even from a browser that sends no
 * Origin. Encapsulated: only the API plugin loses the parser; the routes at the root take no bodies.
 */
export function acceptOnlyJsonBodies(api: FastifyInstance): void {
  api.removeContentTypeParser('text/plain');
}

/**
 * For a route that a page's form posts to (the "Sign out?" button): the form has no fields, so its
 * urlencoded body (a few bytes at most) is read and dropped. Call it in the route's own plugin: the other
 * routes keep refusing forms.
 */
export function acceptEmptyForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, undefined),
  );
}
