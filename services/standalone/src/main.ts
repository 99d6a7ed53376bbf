/**
 * The embedded default: API, web app and projections in one process, on an embedded PostgreSQL server
 * unless DATABASE_URL names one. Ctrl-C / SIGTERM: stop taking requests, stop the runners, stop the server.
 */
import { buildApp } from '@sniplink/api';
import { createLogger } from '@sniplink/platform';
import { clickThreadScript, loadConfigOrExit, reportStartFailure, stopOnSignal } from './process';
import { appDeps, startRuntime, WEB_DIST_DIR } from './runtime';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const runtime = await startRuntime(config, log, { clickThread: clickThreadScript(import.meta.url) });
  const app = await buildApp(appDeps(runtime, log, WEB_DIST_DIR));
  stopOnSignal(app, runtime, log);
  await app.listen({ port: config.port, host: config.host });
  log.info(
    { url: config.publicUrl, database: runtime.describeDatabase },
    `Sniplink is running at http://${config.host}:${config.port} (${runtime.describeDatabase})`,
  );
}

main().catch(reportStartFailure('Sniplink'));
