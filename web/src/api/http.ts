import type { ErrorBody, ErrorCode } from '@sniplink/contracts';

/**
 * A non-OK answer. Its message is "{status}: {body text, or the status text if empty}" as the spec,
 * section 8, describes; `code` and `field` come from the API's `{ code, message, field? }` body so that
 * callers match on them, never on the message text.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode | undefined;
  readonly field: string | undefined;
  /** The server's own message, when the body had one. */
  readonly serverMessage: string | undefined;

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

interface GetJsonOptions {
  signal?: AbortSignal;
  /** Non-OK statuses whose body is still the answer (e.g. 503 from /readyz). */
  acceptStatuses?: readonly number[];
}

/** GET a JSON body, sending cookies (spec, section 7); any other non-OK response throws an ApiError. */
export async function getJson<T>(
  url: string,
  { signal, acceptStatuses = [] }: GetJsonOptions = {},
): Promise<T> {
  const response = await fetch(url, { credentials: 'include', signal });
  if (!response.ok && !acceptStatuses.includes(response.status)) throw await apiErrorFrom(response);
  return (await response.json()) as T;
}

/**
 * Sends a request with cookies; the payload goes as JSON, with a JSON content-type, only when one is given
 * (spec, section 7). Resolves to the parsed body, or undefined when the answer has none (a 202, a 204).
 */
export async function sendJson<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    ...(payload === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }),
  });
  if (!response.ok) throw await apiErrorFrom(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
