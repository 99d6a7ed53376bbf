/**
 * The redirect on its own (`npm run start:redirect`): `GET /s/{code}`, /healthz and /readyz, nothing else.
 * Run it next to an app process (`npm start`, or one per PROJECTIONS=on) that keeps the links read model
 * and the click analytics current: on DATABASE_URL, or attached to the app's embedded PostgreSQL.
 */
import { buildApp } from '@sniplink/api';
import { createLogger } from '@sniplink/platform';
import { clickThreadScript, loadConfigOrExit, reportStartFailure, stopOnSignal } from './process';
import { servedOverHttps, startRedirectRuntime, WEB_DIST_DIR } from './runtime';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const runtime = await startRedirectRuntime(config, log, {
    clickThread: clickThreadScript(import.meta.url),
  });
  const app = await buildApp({
    log,
    readiness: runtime.readiness,
    // No state-changing routes here: no origin is allowed one.
    allowedOrigins: [],
    trustProxy: config.trustProxy,
    https: servedOverHttps(config),
    requestTimeoutMs: config.requestTimeoutMs,
    redirectFastPath: config.redirectFastPath,
    webDistDir: WEB_DIST_DIR,
    redirect: { cache: runtime.linkCache, clicks: runtime.clickBuffer },
  });
  stopOnSignal(app, runtime, log);
  await app.listen({ port: config.port, host: config.host });
  log.info(
    { database: runtime.describeDatabase },
    `Sniplink redirect is running at http://${config.host}:${config.port} (${runtime.describeDatabase})`,
  );
}

main().catch(reportStartFailure('the Sniplink redirect'));
