/**
 * The embedded default: API, web app and projections in one process, on an embedded PostgreSQL server
 * unless DATABASE_URL names one. Ctrl-C / SIGTERM: stop taking requests, stop the runners, stop the server.
 */
import { buildApp } from '@sniplink/api';
import { createLogger } from '@sniplink/platform';
import { loadConfigOrExit, reportStartFailure, stopOnSignal } from './process';
import { appDeps, startRuntime, WEB_DIST_DIR } from './runtime';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const runtime = await startRuntime(config, log, { clickConsumerThread: clickWorker() });
  const app = await buildApp(appDeps(runtime, log, WEB_DIST_DIR));
  stopOnSignal(app, runtime, log);
  await app.listen({ port: config.port, host: config.host });
  log.info(
    { url: config.publicUrl, database: runtime.describeDatabase },
    `Sniplink is running at http://${config.host}:${config.port} (${runtime.describeDatabase})`,
  );
}

/**
 * The click analytics consumer's thread: click-worker.mjs next to this file once bundled (npm start).
 * Run from source (through tsx) the consumer stays on the main thread: a worker's entry is loaded
 * before tsx's hooks apply.
 */
function clickWorker(): { script: URL } | undefined {
  return import.meta.url.endsWith('.mjs')
    ? { script: new URL('./click-worker.mjs', import.meta.url) }
    : undefined;
}

main().catch(reportStartFailure('Sniplink'));
