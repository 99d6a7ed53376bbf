import { ValidationError } from '@sniplink/domain';
import type { z } from 'zod';

/**
 * Parses a request body with its contract schema; a bad one is a 400 naming the field and the rule
 * ("password must be at least 8 characters"), never repeating the value. A request without a body counts
 * as `{}` (every field absent); a JSON body that is not an object (null, an array, a number, a string)
 * is refused.
 */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  return parseInput(schema, body === undefined ? {} : body, 'The request body must be a JSON object');
}

/**
 * Parses a query string with its schema. A repeated parameter (`?search=a&search=b`) arrives as an array
 * and is refused as the wrong type, so a handler never meets a value it did not expect.
 */
export function parseQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.infer<Schema> {
  return parseInput(schema, query ?? {}, 'The query string is not valid');
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
