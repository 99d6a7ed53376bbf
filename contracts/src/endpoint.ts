import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of the API as both sides know it: the server registers its route from it (method, path and the
 * schemas it validates and answers through) and the web app's client builds the URL and parses the answer
 * with it, so neither writes the path or a schema of its own. `:name` in the path is a parameter `params`
 * names; the client percent-encodes it.
 */
export interface Endpoint {
  method: HttpMethod;
  path: `/api/${string}`;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** The answers that are not errors, by status: each one's body. */
  answers: Record<number, z.ZodType>;
}

/** Declares an endpoint; `const` keeps its method, path and schemas as their own types. */
export const endpoint = <const Declared extends Endpoint>(declared: Declared): Declared => declared;
