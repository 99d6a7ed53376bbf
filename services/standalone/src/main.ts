/**
 * The embedded default: API, web app and projections in one process, on an embedded PostgreSQL server
 * unless DATABASE_URL names one. Ctrl-C / SIGTERM: stop taking requests, stop the runners, stop the server.
 */
import { buildApp } from '@sniplink/api';
import { createLogger } from '@sniplink/platform';
import closeWithGrace from 'close-with-grace';
import { loadConfigOrExit, reportStartFailure } from './process';
import { appDeps, startRuntime, WEB_DIST_DIR } from './runtime';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const runtime = await startRuntime(config, log);
  const app = await buildApp(appDeps(runtime, log, WEB_DIST_DIR));
  closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await app.close();
    await runtime.stop();
    log.info('stopped');
  });
  await app.listen({ port: config.port, host: config.host });
  log.info(
    { url: config.publicUrl, database: runtime.describeDatabase },
    `Sniplink is running at http://${config.host}:${config.port} (${runtime.describeDatabase})`,
  );
}

main().catch(reportStartFailure('Sniplink'));
