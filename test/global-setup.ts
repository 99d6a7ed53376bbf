import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger } from '../services/platform/src/logging';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A role that may create databases, on the server this run tests against. */
    adminDatabaseUrl: string;
    databaseTarget: string;
  }
}

/**
 * Tests run against DATABASE_URL when it is given (CI: the machine's PostgreSQL 15), otherwise against one
 * embedded PostgreSQL server started for the whole run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.DATABASE_URL;
  if (given) {
    project.provide('adminDatabaseUrl', given);
    project.provide('databaseTarget', `DATABASE_URL (${new URL(given).host})`);
    console.log(`[tests] database: the server at DATABASE_URL (${new URL(given).host})`);
    return async () => {};
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-test-'));
  // mkdtemp makes it 0700; as root the server's own user must be able to enter it.
  await chmod(dataDir, 0o755);
  const { startEmbeddedPostgres } = await import('../services/platform/src/embedded/embedded-postgres');
  const server = await startEmbeddedPostgres({ dataDir, log: createLogger('warn', 'embedded-postgres') });
  project.provide('adminDatabaseUrl', server.connectionString);
  project.provide('databaseTarget', 'embedded PostgreSQL');
  console.log('[tests] database: an embedded PostgreSQL server started for this run');
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
