/**
 * What a process exits with when it cannot start (docs/operations.md, "Exit codes"): an operator's
 * supervisor or script can tell a wrong setting from a database that is down from a port already taken.
 */
export const EXIT_CODES = {
  /** Anything not named below: a bug, or a failure the process could not put a name to. */
  unexpected: 1,
  /** A variable is wrong (every bad one is named), or a combination of them is refused. */
  badConfiguration: 2,
  /** The database cannot be reached, the embedded server cannot start, or a migration failed. */
  database: 3,
  /** HOST:PORT cannot be listened on: in use, not an address of this machine, or not allowed. */
  cannotListen: 4,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A start that failed for a reason an operator can act on: `message` is the sentence that says what to do. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StartupError';
  }
}

/** A migration that failed on a database that answered (`migration` is its name). */
export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    readonly reason: unknown,
  ) {
    super(`database migration ${migration} failed: ${messageOf(reason)}`, { cause: reason });
    this.name = 'MigrationError';
  }
}

/**
 * The sentence for a database that did not let the process start: which one (`where`, never with its
 * password) and what went wrong, in words rather than a socket error's code.
 */
export function databaseStartError(error: unknown, where: string): StartupError {
  if (error instanceof StartupError) return error;
  if (error instanceof MigrationError) {
    return new StartupError(
      `the schema migration ${error.migration} failed on the database at ${where}: ${messageOf(error.reason)}`,
      EXIT_CODES.database,
      { cause: error },
    );
  }
  return new StartupError(
    `cannot connect to the database at ${where}: ${connectProblem(error)}`,
    EXIT_CODES.database,
    { cause: error },
  );
}

/** Socket and PostgreSQL error codes a person meets when pointing the app at a database, in words. */
const CONNECT_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is PostgreSQL running there, on that port?)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'the host cannot be reached',
  ETIMEDOUT: 'no answer (timed out)',
  ENOENT: 'no server listens on that socket',
  '28P01': 'password authentication failed',
  '28000': 'the server refused this user or client address (pg_hba.conf)',
  '3D000': 'the database does not exist',
  '53300': 'the server has no connection slots left',
  '57P03': 'the server is starting up or shutting down',
};

function connectProblem(error: unknown): string {
  const code = codeOf(error);
  return (code && CONNECT_PROBLEMS[code]) ?? messageOf(error);
}

/** The `code` of an error, or of the first error inside an AggregateError (node's tries of each address). */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return codeOf(error.errors[0]);
  return undefined;
}

/** An error's message; a timeout of pg's own connect has no code, only these words. */
export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return messageOf(error.errors[0]);
  return error instanceof Error ? error.message : String(error);
}

/** The sentence for HOST:PORT that cannot be listened on, by the listen error's code. */
export function listenStartError(error: unknown, host: string, port: number): StartupError | undefined {
  const code = codeOf(error);
  const address = `${host}:${port}`;
  const problems: Record<string, string> = {
    EADDRINUSE: `cannot listen on ${address}: the port is already in use; stop what listens there or set PORT to a free port`,
    EACCES: `cannot listen on ${address}: not allowed (ports below 1024 need privileges); set PORT to 1024 or above`,
    EADDRNOTAVAIL: `cannot listen on ${address}: HOST is not an address of this machine; set HOST to one of its addresses, or 0.0.0.0`,
    ENOTFOUND: `cannot listen on ${address}: HOST is not a known host name; set HOST to an address of this machine`,
  };
  const sentence = code ? problems[code] : undefined;
  return sentence ? new StartupError(sentence, EXIT_CODES.cannotListen, { cause: error }) : undefined;
}
