import { ConfigError, createLogger, type Logger, loadConfig } from '@sniplink/platform';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { type ProcessKind, WEB_DIST_DIR } from './composition';

/**
 * Runs a process of one kind (composition.ts) as its entry point does: the configuration from the
 * environment, the click thread next to the bundle, the built web app; it listens on HOST:PORT until a
 * signal stops it. `name` is what its log line calls it.
 */
export async function serveProcess(start: ProcessKind, entryUrl: string, name: string): Promise<void> {
  const config = loadConfigOrExit();
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
    throw error;
  }
  stopOnSignal(app, runtime, log);
  // The address links and payment returns use, so a user who opens it keeps one session cookie throughout.
  log.info(
    { url: config.publicUrl, listen: `${config.host}:${config.port}`, database: runtime.describeDatabase },
    `${name} is running at ${config.publicUrl} (listening on ${config.host}:${config.port}; ${runtime.describeDatabase})`,
  );
}

/** The configuration, or exit 2 with a message naming every bad variable. */
export function loadConfigOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * For `main().catch(...)`: says what could not start and why, then exits 1; a setting found wrong only
 * once the process knows what it runs (payments) is reported as a bad variable is, exit 2.
 */
export function reportStartFailure(what: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(
      `${what} could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
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
