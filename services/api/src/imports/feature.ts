import { defineFeature } from '../feature';
import { ImportJobs, type ImportJobsDeps } from './import-job';
import { ImportService, type ImportServiceDeps } from './import-service';
import * as importTables from './migration';
import { importRoutes } from './routes';
import type { ImportTables } from './tables';

/**
 * Imports: a user brings their links from another shortener's export (Bitly, YOURLS, …): upload, preview,
 * then a job on the server that creates each link as the dashboard would, and survives a closed page or
 * a restart. The operator's `npm run import` runs the same job outside plan limits.
 */
export const importsFeature = defineFeature({
  name: 'imports',
  build: ({ db, links, accounts, ownOrigins, clock, ids, log, progress }) => {
    const deps: ImportServiceDeps = {
      db: db.withTables<ImportTables>(),
      links,
      accounts,
      ownOrigins,
      clock,
      ids,
    };
    const jobs = new ImportJobs({ ...deps, log, readModels: progress });
    jobs.follow();
    return { imports: new ImportService(deps), jobs };
  },
  routes: ({ imports, jobs }) => [(api) => importRoutes(api, { imports, jobs })],
  migrations: { '2026-11-28T17-imports': importTables },
});

/** The import service and its job runner, for a process that serves no routes (the operator's `npm run import`). */
export function importsFor(deps: ImportJobsDeps): {
  imports: ImportService;
  jobs: ImportJobs;
} {
  return { imports: new ImportService(deps), jobs: new ImportJobs(deps) };
}

export type { ImportTables } from './tables';
