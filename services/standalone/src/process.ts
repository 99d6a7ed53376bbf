import { ConfigError, type Logger, loadConfig } from '@sniplink/platform';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

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

/** For `main().catch(...)`: says what could not start and why, then exits 1. */
export function reportStartFailure(what: string): (error: unknown) => never {
  return (error) => {
    process.stderr.write(
      `${what} could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
}

/**
 * Ctrl-C / SIGTERM (or an uncaught error): stop taking requests, then stop the runtime (the click buffer
 * publishes what it holds, the runners stop, the embedded server last), within 20 s.
 */
export function stopOnSignal(app: FastifyInstance, runtime: { stop(): Promise<void> }, log: Logger): void {
  closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await app.close();
    await runtime.stop();
    log.info('stopped');
  });
}

/**
 * The click thread's script: click-worker.mjs next to the entry once bundled (npm start). Run from source
 * (through tsx) the click work stays on the main thread: a worker's entry is loaded before tsx's hooks
 * apply.
 */
export function clickThreadScript(entryUrl: string): { script: URL } | undefined {
  return entryUrl.endsWith('.mjs') ? { script: new URL('./click-worker.mjs', entryUrl) } : undefined;
}
