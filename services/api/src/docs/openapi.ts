import type { ErrorCode } from '@sniplink/contracts';
import {
  type Method,
  type OperationSpec,
  PATH_SPECS,
  type ParameterSpec,
  type SuccessSpec,
} from './operations';
import { componentSchemas, type JsonSchema, type ResponseSchemaName } from './schemas';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string }>;
  paths: Record<string, Partial<Record<Method, OperationObject>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, ResponseObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
  /** The error codes this status answers with (also the `code` enum of its schema). */
  'x-error-codes'?: ErrorCode[];
}

type ParameterObject = Omit<ParameterSpec, 'in'> & { in: 'query' | 'header' | 'path'; required?: boolean };

export const SESSION_SCHEME = 'sessionCookie';
const STATE_CHANGING: readonly Method[] = ['post', 'patch', 'delete'];
const PATH_PARAMETER_SCHEMAS: Record<string, JsonSchema> = {
  id: { type: 'string', format: 'uuid' },
  code: { type: 'string', maxLength: 100 },
};

let built: OpenApiDocument | undefined;

/** The document, built once per process from the contracts' zod schemas and the table of routes. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildDocument();
  return built;
}

function buildDocument(): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const [path, methods] of Object.entries(PATH_SPECS)) {
    paths[path] = {};
    for (const [method, spec] of Object.entries(methods) as Array<[Method, OperationSpec]>) {
      paths[path][method] = operation(path, method, spec);
      tags.add(spec.tag);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sniplink API',
      version: '1.0.0',
      description:
        'Every error is JSON `{ code, message, field? }`; messages never repeat input. A state-changing ' +
        'request whose Origin is not this site is refused (403 FORBIDDEN_ORIGIN); bodies are JSON only ' +
        '(but for the empty form of `POST /api/logout`).',
    },
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        [SESSION_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sid',
          description: 'The session, set by sign-up and sign-in (HttpOnly, SameSite=Lax)',
        },
      },
    },
  };
}

function operation(path: string, method: Method, spec: OperationSpec): OperationObject {
  const parameters = [...pathParameters(path), ...(spec.parameters ?? [])];
  return {
    operationId: operationId(method, path),
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: security(spec.session),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(spec.body) } } } }
      : {}),
    responses: responses(path, method, spec),
  };
}

/** `post /api/links/{id}/duplicate` -> `postApiLinksIdDuplicate`: unique, and a name code generators take. */
function operationId(method: Method, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
}

/** No scheme: open to anyone; `{}` first: a session is optional and only changes the answer. */
function security(session: OperationSpec['session']): OperationObject['security'] {
  if (session === 'required') return [{ [SESSION_SCHEME]: [] }];
  if (session === 'optional') return [{}, { [SESSION_SCHEME]: [] }];
  return [];
}

function pathParameters(path: string): ParameterObject[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'id' ? "The link's id; malformed or not the caller's: 404" : 'The short code',
    schema: PATH_PARAMETER_SCHEMAS[name] ?? { type: 'string' },
  }));
}

function responses(path: string, method: Method, spec: OperationSpec): Record<string, ResponseObject> {
  const answers: Record<string, ResponseObject> = { [spec.success.status]: success(spec.success) };
  const errors = errorsOf(path, method, spec);
  const statuses = [...new Set([...Object.keys(errors), ...Object.keys(spec.otherResponses ?? {})])];
  for (const status of statuses.map(Number).sort((a, b) => a - b)) {
    const other = spec.otherResponses?.[status];
    answers[status] = other ?? errorResponse(status, errors[status] ?? []);
  }
  return answers;
}

/**
 * The call's own errors plus those that follow from its shape: a session (401), a state change (403
 * FORBIDDEN_ORIGIN, and a body that is malformed, too large, not JSON, too slow or past the budget of
 * bodies in flight, even where none is expected),
 * a JSON body (400 VALIDATION_FAILED naming the field) and a path parameter (a path that is not valid
 * percent-encoding, or a parameter over 100 characters).
 */
function errorsOf(path: string, method: Method, spec: OperationSpec): Partial<Record<number, ErrorCode[]>> {
  const errors: Partial<Record<number, ErrorCode[]>> = {};
  const add = (status: number, codes: readonly ErrorCode[]) => {
    errors[status] = [...new Set([...(errors[status] ?? []), ...codes])];
  };
  if (path.includes('{')) {
    add(400, ['BAD_REQUEST']);
    add(414, ['BAD_REQUEST']);
  }
  if (spec.body) add(400, ['BAD_REQUEST', 'VALIDATION_FAILED']);
  if (STATE_CHANGING.includes(method)) {
    add(400, ['BAD_REQUEST']);
    add(403, ['FORBIDDEN_ORIGIN']);
    add(413, ['PAYLOAD_TOO_LARGE']);
    add(415, ['BAD_REQUEST']);
    // A body that does not arrive within REQUEST_TIMEOUT_MS; one past the bodies-in-flight budgets.
    add(408, ['REQUEST_TIMEOUT']);
    add(429, ['RATE_LIMITED']);
    add(503, ['SERVICE_UNAVAILABLE']);
  }
  if (spec.session === 'required') add(401, ['UNAUTHORIZED']);
  for (const [status, codes] of Object.entries(spec.errors ?? {})) add(Number(status), codes ?? []);
  return errors;
}

function success(spec: SuccessSpec): ResponseObject {
  const content = spec.json ? { 'application/json': { schema: jsonSchemaOf(spec.json) } } : spec.content;
  return {
    description: spec.description,
    ...(spec.headers ? { headers: headers(spec.headers) } : {}),
    ...(content ? { content } : {}),
  };
}

function errorResponse(status: number, codes: ErrorCode[]): ResponseObject {
  // The common body, with `code` narrowed to what this status can carry here.
  const schema = { allOf: [ref('ErrorBody'), { properties: { code: { enum: codes } } }] };
  return {
    description: codes.join(', '),
    ...(status === 429 ? { headers: headers({ 'Retry-After': 'Seconds until a new try may succeed' }) } : {}),
    content: { 'application/json': { schema } },
    'x-error-codes': codes,
  };
}

function headers(described: Record<string, string>): ResponseObject['headers'] {
  return Object.fromEntries(
    Object.entries(described).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  );
}

const jsonSchemaOf = (json: ResponseSchemaName | [ResponseSchemaName]): JsonSchema =>
  Array.isArray(json) ? { type: 'array', items: ref(json[0]) } : ref(json);

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
