/**
 * The embedded default: API, web app and projections in one process, on an embedded PostgreSQL server
 * unless DATABASE_URL names one. Ctrl-C / SIGTERM: stop taking requests, stop the runners, stop the server.
 * What it runs: `startApp` (composition.ts).
 */
import { startApp } from './composition';
import { reportStartFailure, serveProcess } from './process';

serveProcess(startApp, import.meta.url, 'Sniplink').catch(reportStartFailure('Sniplink'));
