/**
 * In a test worker: the run's Kafka broker and KurrentDB server, as test/global-setup.ts chose them. As a
 * setup file (vitest.config.ts) it puts their addresses in KAFKA_BROKERS and ESDB_URL, the variables the
 * suites and the processes they start read: a container's address reaches them as one given by hand does.
 */
import { inject } from 'vitest';
import { URL_VARIABLES } from './servers';

const servers = inject('servers');

for (const service of ['kafka', 'kurrentdb'] as const) {
  const server = servers[service];
  if ('address' in server) process.env[URL_VARIABLES[service]] = server.address;
}

/** Why this run has no such server (for a suite's skip, printed), or undefined when it has one. */
export function serverMissing(service: 'kafka' | 'kurrentdb'): string | undefined {
  const server = servers[service];
  return 'skipped' in server ? server.skipped : undefined;
}
