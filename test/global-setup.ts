import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger } from '../services/platform/src/logging';
import { adminQuery } from './support/admin-query';
import type { StartedServer } from './support/containers';
import {
  chooseServers,
  containerCandidates,
  type DockerState,
  type RunServers,
  type ServerChoices,
  type Service,
} from './support/servers';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A role that may create databases, on the server this run tests against. */
    adminDatabaseUrl: string;
    /** A database on that server with every migration applied, which test databases are copies of. */
    templateDatabase: string;
    databaseTarget: string;
    /** The run's Kafka broker and KurrentDB server, or why there is none (test/support/run-servers.ts). */
    servers: RunServers;
  }
}

/**
 * One set of servers for the whole run, chosen by test/support/servers.ts: PostgreSQL at DATABASE_URL
 * (CI: the machine's PostgreSQL 15), in a container, or one embedded server; Kafka and KurrentDB at the
 * address given, in a container, or none (their suites then say why they are skipped).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const docker: DockerState =
    containerCandidates(process.env).length > 0
      ? await (await import('./support/containers')).probeDocker()
      : { reachable: false, reason: 'not asked: no server needs a container' };
  const choices = chooseServers({ env: process.env, docker });
  const containers = await startContainers(choices);
  const stops: Array<() => Promise<void>> = [...containers.values()].map(
    (container) => () => container.stop(),
  );
  try {
    const stopDatabase = await provideDatabase(project, choices.postgres, containers.get('postgres'));
    // The template goes before its server does.
    const dropTemplate = await provideTemplate(project).catch(async (error: unknown) => {
      await stopDatabase();
      throw error;
    });
    stops.push(async () => {
      await dropTemplate();
      await stopDatabase();
    });
  } catch (error) {
    await stopAll(stops);
    throw error;
  }
  const servers: RunServers = {
    kafka: describeServer('kafka', choices.kafka, containers.get('kafka')),
    kurrentdb: describeServer('kurrentdb', choices.kurrentdb, containers.get('kurrentdb')),
  };
  project.provide('servers', servers);
  return () => stopAll(stops);
}

/** Every container chosen, started at once; if one fails the others are stopped and the run ends saying which. */
async function startContainers(choices: ServerChoices): Promise<Map<Service, StartedServer>> {
  const wanted = (Object.entries(choices) as Array<[Service, ServerChoices[Service]]>).flatMap(
    ([service, choice]) => (choice.kind === 'container' ? [{ service, image: choice.image }] : []),
  );
  if (wanted.length === 0) return new Map();
  const { startContainer } = await import('./support/containers');
  console.log(`[tests] starting containers: ${wanted.map(({ image }) => image).join(', ')}`);
  const results = await Promise.allSettled(
    wanted.map(({ service, image }) => startContainer(service, image)),
  );
  const started = new Map<Service, StartedServer>();
  const failures: string[] = [];
  results.forEach((result, i) => {
    const { service, image } = wanted[i] as (typeof wanted)[number];
    if (result.status === 'fulfilled') started.set(service, result.value);
    else failures.push(`${image}: ${result.reason instanceof Error ? result.reason.message : result.reason}`);
  });
  if (failures.length > 0) {
    await stopAll([...started.values()].map((container) => () => container.stop()));
    throw new Error(
      `[tests] a container did not start (TEST_CONTAINERS=none runs without them):\n${failures.join('\n')}`,
    );
  }
  return started;
}

async function provideDatabase(
  project: TestProject,
  choice: ServerChoices['postgres'],
  container: StartedServer | undefined,
): Promise<() => Promise<void>> {
  if (choice.kind !== 'embedded') {
    const url = choice.kind === 'url' ? choice.url : addressOf(container);
    const host = new URL(url).host;
    const target =
      choice.kind === 'url' ? `DATABASE_URL (${host})` : `a container of ${choice.image} (${host})`;
    project.provide('adminDatabaseUrl', url);
    project.provide('databaseTarget', target);
    console.log(`[tests] database: ${target}`);
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

/**
 * Migrates one database for the run: a test file's migrated database is a copy of it (CREATE DATABASE …
 * TEMPLATE), a fraction of applying every migration again for each file. Dropped when the run ends.
 */
async function provideTemplate(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = project.getProvidedContext().adminDatabaseUrl;
  const name = `sniplink_template_${randomBytes(6).toString('hex')}`;
  const { connectDatabase, migrateToLatest, withDatabaseName } = await import('../services/platform/src');
  const { migrations } = await import('../services/standalone/src/features');
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const connection = connectDatabase(withDatabaseName(adminUrl, name), { poolSize: 1 });
  try {
    await migrateToLatest(connection.db, migrations);
  } finally {
    await connection.close();
  }
  project.provide('templateDatabase', name);
  return () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

function describeServer(
  service: 'kafka' | 'kurrentdb',
  choice: ServerChoices['kafka' | 'kurrentdb'],
  container: StartedServer | undefined,
): RunServers['kafka' | 'kurrentdb'] {
  const described =
    choice.kind === 'url'
      ? { address: choice.url, from: choice.variable }
      : choice.kind === 'container'
        ? { address: addressOf(container), from: `a container of ${choice.image}` }
        : { skipped: choice.reason };
  console.log(
    `[tests] ${service}: ${'address' in described ? `${described.from} (${described.address})` : `none: ${described.skipped}`}`,
  );
  return described;
}

/** startContainers either started every container chosen or ended the run. */
function addressOf(container: StartedServer | undefined): string {
  if (!container) throw new Error('a container chosen for this run was not started');
  return container.address;
}

async function stopAll(stops: Array<() => Promise<void>>): Promise<void> {
  const results = await Promise.allSettled(stops.map((stop) => stop()));
  const failed = results.filter((result) => result.status === 'rejected');
  if (failed.length > 0)
    throw new AggregateError(
      failed.map((result) => result.reason),
      'a server did not stop',
    );
}
