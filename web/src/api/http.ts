import type { ErrorBody, ErrorCode } from '@sniplink/contracts';
import type { z } from 'zod';

/**
 * A non-OK answer. Its message is "{status}: {body text, or the status text if empty}"; `code` and `field` come from the API's `{ code, message, field? }` body so that
 * callers match on them, never on the message text.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode | undefined;
  readonly field: string | undefined;
  /** The server's own message, when the body had one. */
  readonly serverMessage: string | undefined;
  /** The JSON body as sent (some answers carry more than code and message, e.g. `requiresPro`). */
  readonly body: Readonly<Record<string, unknown>> | undefined;

  constructor(
    readonly status: number,
    bodyText: string,
    statusText: string,
    /** From a 429's Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    const body = parseErrorBody(bodyText);
    this.code = body?.code;
    this.field = body?.field;
    this.serverMessage = body?.message;
    this.body = body;
  }
}

function parseErrorBody(text: string): Partial<ErrorBody> | undefined {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : undefined;
  } catch {
    return undefined;
  }
}

async function apiErrorFrom(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    await response.text(),
    response.statusText,
    retryAfter > 0 ? retryAfter : undefined,
  );
}

/** How a call reaches the API: a request to this site, answered with its response. */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;

// The browser's fetch; the server's renderer (entry-server.tsx) answers the same calls in-process.
let transport: ApiTransport = (url, init) => fetch(url, init);

/** Sends every call through `next` from now on: the server's renderer, which has no address to fetch. */
export function sendCallsThrough(next: ApiTransport): void {
  transport = next;
}

interface GetJsonOptions {
  signal?: AbortSignal;
  /** Non-OK statuses whose body is still the answer (e.g. 503 from /readyz). */
  acceptStatuses?: readonly number[];
}

/**
 * GET a JSON body, sending cookies, parsed with the schema the server answers through
 * (@sniplink/contracts); any other non-OK response throws an ApiError.
 */
export async function getJson<Schema extends z.ZodType>(
  url: string,
  schema: Schema,
  { signal, acceptStatuses = [] }: GetJsonOptions = {},
): Promise<z.output<Schema>> {
  const response = await transport(url, { credentials: 'include', signal });
  if (!response.ok && !acceptStatuses.includes(response.status)) throw await apiErrorFrom(response);
  return parseAnswer(schema, await response.json(), url);
}

/**
 * Sends a request with cookies; the payload goes as JSON, with a JSON content-type, only when one is given.
 * Resolves to the answer, parsed with the schema the server answers through.
 */
export async function sendJson<Schema extends z.ZodType>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  schema: Schema,
  payload?: unknown,
): Promise<z.output<Schema>> {
  const response = await transport(url, {
    method,
    credentials: 'include',
    ...(payload === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }),
  });
  if (!response.ok) throw await apiErrorFrom(response);
  return parseAnswer(schema, await response.json(), url);
}

/** An OK answer of another shape than its contract says (a server of another version). */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
}

/** An answer of another shape fails here, not deep inside a page. */
function parseAnswer<Schema extends z.ZodType>(schema: Schema, body: unknown, url: string): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new UnexpectedAnswerError(`The answer of ${url.split('?', 1)[0]} is not what this page expects`);
  }
  return parsed.data;
}
