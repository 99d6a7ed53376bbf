import {
  availabilitySchema,
  createLinkBody,
  demoLinkSchema,
  demoShortenBody,
  errorBodySchema,
  linkAnalyticsSchema,
  linkSchema,
  livenessSchema,
  loginBody,
  passwordResetBody,
  passwordResetConfirmBody,
  profileBody,
  readinessSchema,
  registerBody,
  updateLinkBody,
  userAnalyticsSchema,
  userSchema,
} from '@sniplink/contracts';
import { z } from 'zod';

/** The acknowledgements the contracts leave unnamed: sign-out, sign-out everywhere, delete. */
const okSchema = z.object({ ok: z.literal(true) });
const sessionsEndedSchema = z.object({ ok: z.literal(true), sessionsEnded: z.number().int() });
const deletedLinkSchema = z.object({ ok: z.literal(true), id: z.string() });

/** What the API answers with, as the contracts define it. */
export const RESPONSE_SCHEMAS = {
  User: userSchema,
  Link: linkSchema,
  Availability: availabilitySchema,
  LinkAnalytics: linkAnalyticsSchema,
  UserAnalytics: userAnalyticsSchema,
  DemoLink: demoLinkSchema,
  ErrorBody: errorBodySchema,
  Readiness: readinessSchema,
  Liveness: livenessSchema,
  Ok: okSchema,
  SessionsEnded: sessionsEndedSchema,
  DeletedLink: deletedLinkSchema,
} as const satisfies Record<string, z.ZodType>;

/** The bodies the routes parse (`parseBody`), as the contracts define them. */
export const REQUEST_SCHEMAS = {
  RegisterBody: registerBody,
  LoginBody: loginBody,
  ProfileBody: profileBody,
  PasswordResetBody: passwordResetBody,
  PasswordResetConfirmBody: passwordResetConfirmBody,
  CreateLinkBody: createLinkBody,
  UpdateLinkBody: updateLinkBody,
  DemoShortenBody: demoShortenBody,
} as const satisfies Record<string, z.ZodType>;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;
export type JsonSchema = Record<string, unknown>;

/**
 * Every component schema, from zod: request bodies as the client may send them (`io: 'input'`: optional
 * fields, defaults), answers as the server sends them. OpenAPI 3.1 speaks JSON Schema 2020-12, zod's default.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS))
    schemas[name] = toJsonSchema(schema, 'output');
  for (const [name, schema] of Object.entries(REQUEST_SCHEMAS)) schemas[name] = toJsonSchema(schema, 'input');
  return schemas;
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // The dialect is the document's (OpenAPI 3.1's default), so each schema need not repeat it.
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, override: dropSafeIntegerBounds });
  return json;
}

/** `z.number().int()` comes out with ±(2^53 - 1) bounds: noise in a document people read. */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.type !== 'integer') return;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}
