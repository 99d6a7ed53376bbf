import {
  ConfigError,
  createLogger,
  EXIT_CODES,
  type Logger,
  listenStartError,
  loadConfig,
  StartupError,
} from '@sniplink/platform';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { type ProcessKind, WEB_DIST_DIR } from './composition';

/**
 * Runs a process of one kind (composition.ts) as its entry point does: the configuration from the
 * environment, the click thread next to the bundle, the built web app; it listens on HOST:PORT until a
 * signal stops it. `name` is what its log line calls it.
 */
export async function serveProcess(start: ProcessKind, entryUrl: string, name: string): Promise<void> {
  // A bad variable is thrown to reportStartFailure, which names every one.
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const { app, runtime } = await start(config, log, {
    clickThread: clickThreadScript(entryUrl),
    webDistDir: WEB_DIST_DIR,
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Port taken or address not ours: stop what started (the embedded PostgreSQL server last) before exiting.
    await app.close().catch(() => undefined);
    await runtime.stop().catch(() => runtime.abandon());
    throw listenStartError(error, config.host, config.port) ?? error;
  }
  stopOnSignal(app, runtime, log);
  // The address links and payment returns use, so a user who opens it keeps one session cookie throughout.
  log.info(
    { url: config.publicUrl, listen: `${config.host}:${config.port}`, database: runtime.describeDatabase },
    `${name} is running at ${config.publicUrl} (listening on ${config.host}:${config.port}; ${runtime.describeDatabase})`,
  );
}

/**
 * For `main().catch(...)`: says in ONE JSON log line (the app's format, level fatal) what could not start
 * and what to do about it, then exits with the code docs/operations.md lists ("Exit codes"): 2 for a bad
 * setting (also one found wrong only once the process knows what it runs, payments), 3 for the database,
 * 4 for HOST:PORT, 1 for anything else (with its stack, in the same line).
 */
export function reportStartFailure(what: string): (error: unknown) => never {
  return (error) => {
    // The configuration may be what failed: the fatal line does not depend on LOG_LEVEL.
    const log = createLogger('info');
    if (error instanceof ConfigError) {
      log.fatal(
        { exitCode: EXIT_CODES.badConfiguration, problems: error.problems },
        `${what} cannot start: invalid configuration: ${error.problems.join('; ')}`,
      );
      process.exit(EXIT_CODES.badConfiguration);
    }
    if (error instanceof StartupError) {
      log.fatal(
        { exitCode: error.exitCode, cause: causeOf(error) },
        `${what} cannot start: ${error.message}`,
      );
      process.exit(error.exitCode);
    }
    log.fatal(
      { exitCode: EXIT_CODES.unexpected, err: error },
      `${what} cannot start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(EXIT_CODES.unexpected);
  };
}

/** The low-level error under a start failure's sentence (a socket's code, PostgreSQL's words), for the curious. */
function causeOf(error: StartupError): string | undefined {
  const cause = error.cause;
  if (cause === undefined) return undefined;
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return cause.errors.map((inner) => (inner instanceof Error ? inner.message : String(inner))).join('; ');
  }
  return cause instanceof Error ? cause.message : String(cause);
}

/** How long a signalled process has to stop before it exits 1 anyway (Kubernetes' default grace is 30 s). */
export const STOP_GRACE_MS = 25_000;
const HTTP_CLOSE_MS = 5_000;

/**
 * Ctrl-C / SIGTERM (or an uncaught error): stop taking requests, then stop the runtime (the click buffer
 * publishes what it holds, the runners stop, the embedded server last), within STOP_GRACE_MS. A stop that
 * takes longer is logged with the step it was waiting for, and the process exits 1.
 */
export function stopOnSignal(
  app: FastifyInstance,
  runtime: { stop(onStep?: (step: string) => void): Promise<void>; abandon(): void },
  log: Logger,
): void {
  let step = 'closing the HTTP server';
  /** Exiting without a clean stop: say where it was, and leave no embedded server running behind. */
  const forcedExit = (fields: Record<string, unknown>, message: string) => {
    log.error({ ...fields, step }, `${message} (${step}); exiting`);
    runtime.abandon();
  };
  closeWithGrace(
    {
      delay: STOP_GRACE_MS,
      logger: false,
      onTimeout: () => forcedExit({}, `did not stop within ${STOP_GRACE_MS / 1_000} s`),
      onSecondSignal: (signal) => forcedExit({ signal }, `second ${signal} while stopping`),
      onSecondError: (err) => forcedExit({ err }, 'an error while stopping'),
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an error');
      else log.info({ signal }, 'shutting down');
      try {
        // Idle connections close at once; a request still under way gets HTTP_CLOSE_MS, then its
        // connection is cut (a client trickling a body must not keep the clicks below from being published).
        const cut = setTimeout(() => app.server.closeAllConnections(), HTTP_CLOSE_MS);
        await app.close();
        clearTimeout(cut);
        await runtime.stop((next) => {
          step = next;
        });
      } catch (error) {
        forcedExit({ err: error }, 'could not stop cleanly');
        throw error; // exits 1
      }
      log.info('stopped');
    },
  );
}

/**
 * The click thread's script: click-worker.mjs next to the entry once bundled (npm start). Run from source
 * (through tsx) the click work stays on the main thread: a worker's entry is loaded before tsx's hooks
 * apply.
 */
export function clickThreadScript(entryUrl: string): { script: URL } | undefined {
  return entryUrl.endsWith('.mjs') ? { script: new URL('./click-worker.mjs', entryUrl) } : undefined;
}
