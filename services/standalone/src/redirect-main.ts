/**
 * The redirect on its own (`npm run start:redirect`): `GET /s/{code}`, /healthz and /readyz, nothing else.
 * Run it next to an app process (`npm start`, or one per PROJECTIONS=on) that keeps the links read model
 * and the click analytics current: on DATABASE_URL, or attached to the app's embedded PostgreSQL.
 * What it runs: `startRedirect` (composition.ts).
 */
import { startRedirect } from './composition';
import { reportStartFailure, serveProcess } from './process';

serveProcess(startRedirect, import.meta.url, 'Sniplink redirect').catch(
  reportStartFailure('Sniplink redirect'),
);
