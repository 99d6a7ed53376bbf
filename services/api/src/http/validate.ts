import { ValidationError } from '@sniplink/domain';
import type { z } from 'zod';

/**
 * Parses a request body with its contract schema; a bad one is a 400 naming the field and the rule
 * ("password must be at least 8 characters"), never repeating the value.
 */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  const rule =
    issue?.code === 'invalid_type'
      ? issue.input === undefined
        ? 'is required'
        : 'has the wrong type'
      : issue?.message;
  throw new ValidationError(field ? `${field} ${rule}` : 'The request body is not valid', field);
}
