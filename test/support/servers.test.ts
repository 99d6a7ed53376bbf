import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { probeDocker } from './containers';
import { chooseServers, containerCandidates, containersAskedFor, type DockerState, IMAGES } from './servers';

const up: DockerState = { reachable: true };
const down: DockerState = { reachable: false, reason: 'Could not find a working container runtime strategy' };
const urls = {
  DATABASE_URL: 'postgres://ci:ci@127.0.0.1:5432/ci',
  KAFKA_BROKERS: '127.0.0.1:19092',
  ESDB_URL: 'kurrentdb://127.0.0.1:2113?tls=false',
};

describe('which servers a run uses', () => {
  it('takes the server each variable names, over any container, Docker or not', () => {
    for (const docker of [up, down]) {
      for (const TEST_CONTAINERS of [undefined, 'postgres,kafka,kurrentdb']) {
        expect(chooseServers({ env: { ...urls, TEST_CONTAINERS }, docker })).toEqual({
          postgres: { kind: 'url', url: urls.DATABASE_URL, variable: 'DATABASE_URL' },
          kafka: { kind: 'url', url: urls.KAFKA_BROKERS, variable: 'KAFKA_BROKERS' },
          kurrentdb: { kind: 'url', url: urls.ESDB_URL, variable: 'ESDB_URL' },
        });
      }
    }
  });

  it('with Docker, runs Kafka and KurrentDB in containers of the deployments’ images and keeps the embedded PostgreSQL', () => {
    expect(chooseServers({ env: {}, docker: up })).toEqual({
      postgres: { kind: 'embedded' },
      kafka: { kind: 'container', image: 'apache/kafka:4.3.1' },
      kurrentdb: { kind: 'container', image: 'docker.kurrent.io/kurrent-latest/kurrentdb:26.1.1' },
    });
  });

  it('runs PostgreSQL in a container when TEST_CONTAINERS names it, and leaves out what it does not name', () => {
    const choices = chooseServers({ env: { TEST_CONTAINERS: 'postgres' }, docker: up });
    expect(choices.postgres).toEqual({ kind: 'container', image: 'postgres:17.10-bookworm' });
    expect(choices.kafka).toEqual({
      kind: 'skip',
      reason:
        'KAFKA_BROKERS is not set and TEST_CONTAINERS (postgres) leaves it out: start a broker with `npm run kafka:local`',
    });
    expect(choices.kurrentdb).toEqual({
      kind: 'skip',
      reason:
        'ESDB_URL is not set and TEST_CONTAINERS (postgres) leaves it out: set ESDB_URL to a KurrentDB server of its own',
    });
  });

  it('mixes: a variable for one server, a container for another', () => {
    const choices = chooseServers({ env: { KAFKA_BROKERS: ' 10.0.0.1:9092 ' }, docker: up });
    expect(choices.kafka).toEqual({ kind: 'url', url: '10.0.0.1:9092', variable: 'KAFKA_BROKERS' });
    expect(choices.kurrentdb).toEqual({ kind: 'container', image: IMAGES.kurrentdb });
  });

  it('without Docker, uses the embedded PostgreSQL and skips Kafka and KurrentDB, saying why and what to do', () => {
    expect(chooseServers({ env: {}, docker: down })).toEqual({
      postgres: { kind: 'embedded' },
      kafka: {
        kind: 'skip',
        reason:
          'KAFKA_BROKERS is not set and no Docker engine is reachable (Could not find a working container runtime strategy) to run apache/kafka:4.3.1 in: start a broker with `npm run kafka:local`',
      },
      kurrentdb: {
        kind: 'skip',
        reason:
          'ESDB_URL is not set and no Docker engine is reachable (Could not find a working container runtime strategy) to run docker.kurrent.io/kurrent-latest/kurrentdb:26.1.1 in: set ESDB_URL to a KurrentDB server of its own',
      },
    });
  });

  it('with TEST_CONTAINERS=none, starts no container and never blames Docker', () => {
    expect(containerCandidates({ TEST_CONTAINERS: 'none' })).toEqual([]);
    const choices = chooseServers({ env: { TEST_CONTAINERS: 'none' }, docker: up });
    expect(choices.postgres).toEqual({ kind: 'embedded' });
    for (const choice of [choices.kafka, choices.kurrentdb]) {
      expect(choice).toMatchObject({
        kind: 'skip',
        reason: expect.stringContaining('TEST_CONTAINERS (none) leaves it out'),
      });
      expect(JSON.stringify(choice)).not.toContain('Docker');
    }
  });

  it('refuses a container TEST_CONTAINERS asks for when no Docker engine answers, naming it, the reason and the way out', () => {
    expect(() => chooseServers({ env: { TEST_CONTAINERS: 'kafka,postgres' }, docker: down })).toThrow(
      'TEST_CONTAINERS asks for postgres, kafka in a container, but no Docker engine is reachable (Could not find a working container runtime strategy): start one, name the servers (DATABASE_URL, KAFKA_BROKERS), or leave TEST_CONTAINERS unset',
    );
    // Asked for, but given by its variable: nothing needs Docker.
    expect(
      chooseServers({ env: { TEST_CONTAINERS: 'kafka', KAFKA_BROKERS: urls.KAFKA_BROKERS }, docker: down })
        .kafka,
    ).toEqual({
      kind: 'url',
      url: urls.KAFKA_BROKERS,
      variable: 'KAFKA_BROKERS',
    });
  });

  it('reads TEST_CONTAINERS: unset or blank is Kafka and KurrentDB, a list in any order, none, and refuses a name it does not know', () => {
    expect(containersAskedFor({})).toEqual({ services: ['kafka', 'kurrentdb'], explicit: false });
    expect(containersAskedFor({ TEST_CONTAINERS: '  ' })).toEqual({
      services: ['kafka', 'kurrentdb'],
      explicit: false,
    });
    expect(containersAskedFor({ TEST_CONTAINERS: ' kurrentdb , postgres,' })).toEqual({
      services: ['postgres', 'kurrentdb'],
      explicit: true,
    });
    expect(containersAskedFor({ TEST_CONTAINERS: 'none' })).toEqual({ services: [], explicit: true });
    expect(() => containersAskedFor({ TEST_CONTAINERS: 'kafka,eventstore' })).toThrow(
      'TEST_CONTAINERS: unknown server "eventstore": give a comma-separated list of postgres, kafka, kurrentdb, or none',
    );
  });

  it('asks Docker only about servers no variable names (a blank variable names none)', () => {
    expect(containerCandidates({ ...urls, TEST_CONTAINERS: 'postgres,kafka,kurrentdb' })).toEqual([]);
    expect(containerCandidates({ KAFKA_BROKERS: '127.0.0.1:19092', ESDB_URL: ' ' })).toEqual(['kurrentdb']);
  });

  it('uses the images the compose files deploy', () => {
    type Compose = { services: Record<string, { image?: string }> };
    const read = (file: string): Compose =>
      parse(readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8'), { merge: true });
    const single = read('compose.yaml');
    const distributed = read('deploy/compose.distributed.yaml');
    expect(IMAGES).toEqual({
      postgres: single.services.postgres?.image,
      kafka: distributed.services.kafka?.image,
      kurrentdb: distributed.services.eventstore?.image,
    });
    expect(distributed.services.postgres?.image).toBe(IMAGES.postgres);
  });
});

describe('the Docker probe', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('gives up on an engine that never answers within its bound, saying so', async () => {
    // A DOCKER_HOST that takes the connection and never answers: testcontainers waits on it, whatever
    // other engine the machine has.
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    process.env.DOCKER_HOST = `tcp://127.0.0.1:${port}`;
    const started = performance.now();
    expect(await probeDocker(1_000)).toEqual({ reachable: false, reason: 'no engine answered within 1 s' });
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
