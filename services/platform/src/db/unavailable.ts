/**
 * SQLSTATEs of a server going away or not there yet: 57P01 admin shutdown (also what a backend says when
 * its postmaster was killed), 57P02 crash shutdown (another backend crashed), 57P03 cannot connect now
 * (starting up, in recovery, shutting down). Class 08 is every connection exception.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const CONNECTION_EXCEPTION_CLASS = '08';

/** Socket errors of reaching the server: nothing listens (a unix socket missing or refused), reset, timed out. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SOCKET_CALLS = new Set(['connect', 'read', 'write', 'getaddrinfo']);

/**
 * What `pg` and `pg-pool` say, without a code, when a connection ends or cannot be had: the server went
 * away under a client, a client's or a pool's connect timed out, a client is used after its connection failed, or the
 * pool is closing (the process is stopping).
 */
const DRIVER_MESSAGES =
  /^(Connection terminated|timeout expired$|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/**
 * True when an error means the database cannot be reached right now (down, restarting, starting up, the
 * connection cut), as opposed to a statement it refused: the same call is worth trying again shortly.
 * Looks through `cause` and AggregateError's `errors` (a connect to several addresses).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, syscall, message, cause, errors } = error as {
    code?: unknown;
    syscall?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || isConnectionException(code)) return true;
    if (SOCKET_ERRORS.has(code) && (syscall === undefined || SOCKET_CALLS.has(String(syscall)))) return true;
  }
  if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** SQLSTATEs are five characters; class 08 (connection exception) covers 08000-08P01. */
function isConnectionException(code: string): boolean {
  return code.length === 5 && code.startsWith(CONNECTION_EXCEPTION_CLASS);
}
