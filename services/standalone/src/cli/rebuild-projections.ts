/**
 * `npm run projections:rebuild [-- NAME…] [--batch-size N]`: rebuilds read models blue/green from the start
 * of the event log, every one or those named, one after the other, with a progress bar on stderr. The app
 * may keep running: its runners keep the live tables current until each new copy is swapped in. A rebuild
 * cut short (Ctrl-C, a crash) resumes where it was on the next run, or in the app where projections run.
 */
import { parseArgs } from 'node:util';
import { ConfigError, createLogger, loadConfig } from '@sniplink/platform';
import { RebuildRunningError, rebuildBlueGreen } from '@sniplink/projections';
import { startRuntime } from '../runtime';
import { progressBar } from './progress-bar';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { 'batch-size': { type: 'string' } },
    allowPositionals: true,
  });
  const batchSize = values['batch-size'] ? Number(values['batch-size']) : undefined;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    process.stderr.write('--batch-size takes a whole number of events above 0\n');
    return 2;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const runtime = await startRuntime(config, log, { projections: false });
  try {
    const known = runtime.projections.map((projection) => projection.name);
    const unknown = positionals.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      process.stderr.write(
        `No projection is named ${unknown.map((n) => `"${n}"`).join(', ')}; the projections are ${known.join(', ')}\n`,
      );
      return 2;
    }
    const chosen =
      positionals.length > 0
        ? runtime.projections.filter((p) => positionals.includes(p.name))
        : runtime.projections;
    const deps = {
      db: runtime.database.db,
      locks: runtime.projectionLocks,
      eventStore: runtime.eventStore,
      log,
      progress: runtime.progress,
    };
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort(new Error('interrupted: run again to resume')));
    for (const projection of chosen) {
      const bar = progressBar();
      bar.start(projection.name, null);
      let shown = 0;
      const result = await rebuildBlueGreen(deps, projection, {
        requestedBy: 'operator',
        signal: stop.signal,
        ...(batchSize ? { batchSize } : {}),
        onProgress: (progress) => {
          bar.advance(progress.applied - shown);
          shown = progress.applied;
          const eta = progress.etaSeconds === null ? '' : `, ${Math.ceil(progress.etaSeconds)} s left`;
          bar.note(`${Math.round(progress.eventsPerSecond)} events/s${eta}`);
        },
      }).finally(() => bar.stop());
      process.stdout.write(
        `rebuilt ${result.name}: ${result.events} events in ${result.ms} ms, swapped in ${result.swapMs.toFixed(1)} ms\n`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof RebuildRunningError) {
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
