import { z } from 'zod';

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

/** What a declaration says of the request besides its method and path. */
type Parts = Pick<Endpoint, 'params' | 'querystring' | 'body'>;

/** The `:name`s of a path. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The parameters a path names, each a string, unless the declaration gives their schema itself. */
type DerivedParams<Path extends string, Declared extends Parts> = Declared extends { params: z.ZodType }
  ? unknown
  : [ParamNames<Path>] extends [never]
    ? unknown
    : { params: z.ZodObject<{ [Name in ParamNames<Path>]: z.ZodString }> };

/**
 * Declares an endpoint from `'METHOD /api/path'`, its answers by status, and the schemas of its request's
 * parts; `const` keeps its method, path and schemas as their own types. The path's `:name`s are string
 * parameters unless `params` narrows them.
 */
export function endpoint<
  const Route extends `${HttpMethod} /api/${string}`,
  const Answers extends Endpoint['answers'],
  const Declared extends Parts = Record<never, never>,
>(
  route: Route,
  answers: Answers,
  declared: Declared = {} as Declared,
): Route extends `${infer Method extends HttpMethod} ${infer Path extends `/api/${string}`}`
  ? { method: Method; path: Path; answers: Answers } & DerivedParams<Path, Declared> & Declared
  : never {
  const [method, path] = route.split(' ') as [HttpMethod, `/api/${string}`];
  const names = [...path.matchAll(/:(\w+)/g)].map(([, name]) => name as string);
  const params =
    declared.params || names.length === 0
      ? {}
      : { params: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) };
  // The conditional return type is what callers see; it holds for what is built here.
  return { method, path, ...params, ...declared, answers } as never;
}
