import { ValidationError } from '@sniplink/domain';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** What a part that is not an object at all (`null`, an array, a number) is told. */
const NOT_AN_OBJECT: Record<string, string> = {
  body: 'The request body must be a JSON object',
  querystring: 'The query string is not valid',
  params: 'The request address is not valid',
  headers: 'The request headers are not valid',
};

/**
 * Fastify's validator for the routes' zod schemas (body, query string, path, headers): a bad part is a 400
 * naming the field and the rule ("password must be at least 8 characters"), never repeating the value.
 * A repeated query parameter (`?search=a&search=b`) arrives as an array and is refused as the wrong type,
 * so a handler never meets a value it did not expect. A request without a body counts as `{}`
 * (`treatMissingBodiesAsEmpty`); a JSON body that is not an object is refused.
 *
 * fastify-type-provider-zod's own validator answers with all of zod's issues and their inputs; ours keeps
 * the API's error shape (`{ code, message, field }`, the first issue) and refuses text PostgreSQL cannot
 * store, so it is written here; the library's serializer and OpenAPI transform are used as they are.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const notAnObject = NOT_AN_OBJECT[httpPart ?? ''] ?? 'The request is not valid';
  return (input) => {
    try {
      return { value: parseInput(schema, input, notAnObject) };
    } catch (error) {
      return { error: error as ValidationError };
    }
  };
};

/**
 * Fastify hands a validator `null` for a request without a body, as for a body of `null`: this hook, run
 * before validation, makes the first `{}` so that only the second is refused.
 */
export function treatMissingBodiesAsEmpty(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = {};
  });
}

function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  notAnObject: string,
): z.infer<Schema> {
  // reportInput lets the rule below tell a missing field from a wrong type; the input is never echoed.
  const parsed = schema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw toValidationError(parsed.error.issues[0], notAnObject);
  assertStorableText(parsed.data);
  return parsed.data;
}

function toValidationError(issue: z.core.$ZodIssue | undefined, notAnObject: string): ValidationError {
  const field = issue ? fieldName(issue.path) : undefined;
  if (!issue || !field) {
    return new ValidationError(issue?.code === 'invalid_type' ? notAnObject : 'The request is not valid');
  }
  return new ValidationError(`${field} ${ruleOf(issue)}`, field);
}

function ruleOf(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type') return issue.message;
  return issue.input === undefined ? 'is required' : 'has the wrong type';
}

/** `a.b.0`, or undefined when the path is empty or holds a key we would not repeat back (not a name). */
function fieldName(path: readonly PropertyKey[]): string | undefined {
  const field = path.map(String).join('.');
  return /^[A-Za-z0-9_.-]{1,100}$/.test(field) ? field : undefined;
}

/**
 * PostgreSQL stores neither U+0000 (in text or jsonb) nor a lone UTF-16 surrogate (in jsonb, where every
 * event lives): such a string passed the schema, then failed in the database as a 500. No field has a use
 * for either, so they are a 400 here. The walk keeps its own stack and links each value to its parent
 * (the path is built only for the error), so even a deeply nested value costs no recursion.
 */
function assertStorableText(value: unknown): void {
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === 'string' && !isStorable(current)) throw badTextError(pathOf(visit));
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, child] of Object.entries(current)) pending.push({ value: child, key, parent: visit });
  }
}

interface Visit {
  value: unknown;
  key: string | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

function badTextError(path: string[]): ValidationError {
  const field = fieldName(path);
  const message = field
    ? `${field} contains characters that are not allowed`
    : 'The request contains characters that are not allowed';
  return new ValidationError(message, field);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isStorable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
