/**
 * `npm run projections:rebuild`: rebuilds every read model from the start of the event log.
 * Stop the app first (its runners hold the projections' locks); on the embedded default this starts
 * the embedded server if the app is not running.
 */
import { ConfigError, createLogger, loadConfig } from '@sniplink/platform';
import { ProjectionBusyError, rebuildProjections } from '@sniplink/projections';
import { startRuntime } from '../runtime';

async function main(): Promise<number> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const runtime = await startRuntime(config, log, { projections: false });
  try {
    const deps = {
      db: runtime.database.db,
      locks: runtime.projectionLocks,
      eventStore: runtime.eventStore,
      log,
    };
    const results = await rebuildProjections(deps, runtime.projections);
    for (const result of results) {
      process.stdout.write(`rebuilt ${result.name}: ${result.events} events in ${result.ms} ms\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ProjectionBusyError) {
      process.stderr.write(`${error.message}\n`);
      return 3;
    }
    throw error;
  } finally {
    await runtime.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
