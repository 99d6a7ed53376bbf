import type { Endpoint } from '@sniplink/contracts';
import { z } from 'zod';
import { getJson, sendJson } from './http';

type PathParams<Declared extends Endpoint> = Declared['params'] extends z.ZodType
  ? { params: z.input<Declared['params']> }
  : { params?: never };
type Query<Declared extends Endpoint> = Declared['querystring'] extends z.ZodType
  ? { query?: z.input<Declared['querystring']> }
  : { query?: never };
type Body<Declared extends Endpoint> = Declared['body'] extends z.ZodType
  ? { body: z.input<Declared['body']> }
  : { body?: never };

/** What a call of an endpoint takes: its path's parameters, its query and its body, typed by it. */
export type CallParts<Declared extends Endpoint> = PathParams<Declared> & Query<Declared> & Body<Declared>;

/** What a call of an endpoint resolves to: the body of any of its answers that are not errors. */
export type AnswerOf<Declared extends Endpoint> = z.output<
  Declared['answers'][keyof Declared['answers'] & number]
>;

interface CallOptions {
  signal?: AbortSignal;
}

type Arguments<Declared extends Endpoint> =
  object extends CallParts<Declared>
    ? [parts?: CallParts<Declared>, options?: CallOptions]
    : [parts: CallParts<Declared>, options?: CallOptions];

/**
 * The endpoint's URL: each `:name` of its path replaced by that parameter, percent-encoded (an id or a
 * code the user typed cannot change which path is called), then the query's values that are set.
 */
export function urlOf<Declared extends Endpoint>(
  declared: Declared,
  parts: Partial<PathParams<Declared> & Query<Declared>> = {},
): string {
  const params = (parts.params ?? {}) as Record<string, unknown>;
  const path = declared.path.replace(/:(\w+)/g, (_placeholder, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${declared.path} needs its ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((parts.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Calls an endpoint with cookies and parses its answer with the schema the server answers through; an
 * error answer throws an ApiError (`http.ts`).
 */
export function call<Declared extends Endpoint>(
  declared: Declared,
  ...[parts, options]: Arguments<Declared>
): Promise<AnswerOf<Declared>> {
  const url = urlOf(declared, parts as Partial<PathParams<Declared> & Query<Declared>>);
  const schema = answerSchema(declared);
  const answer =
    declared.method === 'GET'
      ? getJson(url, schema, options)
      : sendJson(declared.method, url, schema, parts?.body);
  return answer as Promise<AnswerOf<Declared>>;
}

function answerSchema(declared: Endpoint): z.ZodType {
  const schemas = Object.values(declared.answers);
  const [first, ...rest] = schemas;
  if (!first) throw new Error(`${declared.path} declares no answer`);
  return rest.length === 0 ? first : z.union([first, ...rest]);
}
