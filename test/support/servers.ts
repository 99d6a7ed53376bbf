/**
 * Which server each suite that needs one runs against, chosen once per run (test/global-setup.ts) from the
 * environment and from whether a Docker engine answers:
 *
 * - a server named by its variable always wins: `DATABASE_URL`, `KAFKA_BROKERS`, `ESDB_URL`;
 * - else, when a Docker engine is reachable, a container of the deployments' image for each server that
 *   `TEST_CONTAINERS` names (default `kafka,kurrentdb`; `postgres` too for PostgreSQL 17 instead of the
 *   embedded server, `none` for no container);
 * - else PostgreSQL is the embedded server, and the Kafka and KurrentDB suites are skipped, saying why.
 *
 * PostgreSQL stays embedded by default because the embedded server is what `npm start` runs. A server that
 * `TEST_CONTAINERS` names while no Docker engine answers is an error rather than a skip: it was asked for.
 * Pure: the Docker probe and the containers are in containers.ts.
 */

export const SERVICES = ['postgres', 'kafka', 'kurrentdb'] as const;
export type Service = (typeof SERVICES)[number];

/** The deployments' images (compose.yaml, deploy/compose.distributed.yaml): the suites meet their servers. */
export const IMAGES: Readonly<Record<Service, string>> = {
  postgres: 'postgres:17.10-bookworm',
  kafka: 'apache/kafka:4.3.1',
  kurrentdb: 'docker.kurrent.io/kurrent-latest/kurrentdb:26.1.1',
};

/** The variable that names a server of one's own, which wins over any container. */
export const URL_VARIABLES: Readonly<Record<Service, string>> = {
  postgres: 'DATABASE_URL',
  kafka: 'KAFKA_BROKERS',
  kurrentdb: 'ESDB_URL',
};

const DEFAULT_CONTAINERS: readonly Service[] = ['kafka', 'kurrentdb'];

export type UrlChoice = { kind: 'url'; url: string; variable: string };
export type ContainerChoice = { kind: 'container'; image: string };
export type SkipChoice = { kind: 'skip'; reason: string };

export interface ServerChoices {
  postgres: UrlChoice | ContainerChoice | { kind: 'embedded' };
  kafka: UrlChoice | ContainerChoice | SkipChoice;
  kurrentdb: UrlChoice | ContainerChoice | SkipChoice;
}

export type DockerState = { reachable: true } | { reachable: false; reason: string };

type Env = Readonly<Record<string, string | undefined>>;

/** The servers `TEST_CONTAINERS` asks containers for, and whether it was set (then a missing engine is an error). */
export function containersAskedFor(env: Env): { services: Service[]; explicit: boolean } {
  const value = env.TEST_CONTAINERS?.trim();
  if (!value) return { services: [...DEFAULT_CONTAINERS], explicit: false };
  if (value === 'none') return { services: [], explicit: true };
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(SERVICES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `TEST_CONTAINERS: unknown server ${unknown.map((name) => `"${name}"`).join(', ')}: give a comma-separated list of ${SERVICES.join(', ')}, or none`,
    );
  }
  return { services: SERVICES.filter((service) => names.includes(service)), explicit: true };
}

/** The servers that would run in a container if Docker answers: asked for, and not named by their variable. */
export function containerCandidates(env: Env): Service[] {
  return containersAskedFor(env).services.filter((service) => !givenUrl(env, service));
}

export function chooseServers({ env, docker }: { env: Env; docker: DockerState }): ServerChoices {
  const asked = containersAskedFor(env);
  const candidates = containerCandidates(env);
  if (asked.explicit && candidates.length > 0 && !docker.reachable) {
    throw new Error(
      `TEST_CONTAINERS asks for ${candidates.join(', ')} in a container, but no Docker engine is reachable (${docker.reason}): ` +
        `start one, name the servers (${candidates.map((service) => URL_VARIABLES[service]).join(', ')}), or leave TEST_CONTAINERS unset`,
    );
  }
  const choose = (service: Service): UrlChoice | ContainerChoice | undefined => {
    const url = givenUrl(env, service);
    if (url) return { kind: 'url', url, variable: URL_VARIABLES[service] };
    if (candidates.includes(service) && docker.reachable)
      return { kind: 'container', image: IMAGES[service] };
    return undefined;
  };
  const withoutServer = (service: 'kafka' | 'kurrentdb', otherwise: string): SkipChoice => {
    const why =
      candidates.includes(service) && !docker.reachable
        ? `no Docker engine is reachable (${docker.reason}) to run ${IMAGES[service]} in`
        : `TEST_CONTAINERS (${env.TEST_CONTAINERS?.trim()}) leaves it out`;
    return { kind: 'skip', reason: `${URL_VARIABLES[service]} is not set and ${why}: ${otherwise}` };
  };
  return {
    postgres: choose('postgres') ?? { kind: 'embedded' },
    kafka: choose('kafka') ?? withoutServer('kafka', 'start a broker with `npm run kafka:local`'),
    kurrentdb:
      choose('kurrentdb') ?? withoutServer('kurrentdb', 'set ESDB_URL to a KurrentDB server of its own'),
  };
}

function givenUrl(env: Env, service: Service): string | undefined {
  const value = env[URL_VARIABLES[service]]?.trim();
  return value ? value : undefined;
}

/** What a test worker is told of the run's Kafka and KurrentDB servers (test/global-setup.ts provides it). */
export interface RunServers {
  kafka: { address: string; from: string } | { skipped: string };
  kurrentdb: { address: string; from: string } | { skipped: string };
}
