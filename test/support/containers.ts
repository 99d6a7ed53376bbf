/**
 * The impure half of servers.ts: whether a Docker engine answers, and the containers of the servers chosen
 * for one (testcontainers). Loaded only by test/global-setup.ts, and testcontainers only when a run asks
 * for a container.
 */
import type { DockerState, Service } from './servers';

/** An engine that is there answers in well under a second; a DOCKER_HOST nobody answers at must not hold the run. */
const PROBE_TIMEOUT_MS = 5_000;
const STARTUP_TIMEOUT_MS = 180_000;

/**
 * Asks the way testcontainers looks for an engine (DOCKER_HOST, ~/.testcontainers.properties, the Docker
 * CLI's context, the usual sockets), and says why when none answers.
 */
export async function probeDocker(timeoutMs = PROBE_TIMEOUT_MS): Promise<DockerState> {
  let testcontainers: typeof import('testcontainers');
  try {
    testcontainers = await import('testcontainers');
  } catch (error) {
    return { reachable: false, reason: `testcontainers could not be loaded: ${messageOf(error)}` };
  }
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no engine answered within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    await Promise.race([testcontainers.getContainerRuntimeClient(), silence]);
    return { reachable: true };
  } catch (error) {
    return { reachable: false, reason: messageOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

export interface StartedServer {
  /** What the suites are given: a connection string, broker list or KurrentDB URL. */
  address: string;
  stop(): Promise<void>;
}

export function startContainer(service: Service, image: string): Promise<StartedServer> {
  switch (service) {
    case 'postgres':
      return startPostgres(image);
    case 'kafka':
      return startKafka(image);
    case 'kurrentdb':
      return startKurrentDb(image);
  }
}

async function startPostgres(image: string): Promise<StartedServer> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  // Test files run in parallel, each with a pool and the app processes it starts: as many connections as
  // the distributed deployment's PostgreSQL and the embedded server allow.
  const container = await new PostgreSqlContainer(image)
    .withCommand(['postgres', '-c', 'max_connections=200'])
    .withStartupTimeout(STARTUP_TIMEOUT_MS)
    .start();
  // The container's role is a superuser: it may create each test file's database.
  return { address: container.getConnectionUri(), stop: async () => void (await container.stop()) };
}

const KAFKA_PORT = 9092;
const KAFKA_STARTER = '/tmp/sniplink-kafka-start.sh';
const KAFKA_WAITING = 'waiting for the address to advertise';

/**
 * Apache Kafka's own image, one node in KRaft mode, with the distributed deployment's settings. A client is sent to the
 * address the broker advertises, which must be the host's port Docker maps: known only once the container
 * runs. So the container first waits for a start script, which is copied in with that address, and the
 * broker starts then.
 */
async function startKafka(image: string): Promise<StartedServer> {
  const { GenericContainer, Wait, BoundPorts, getContainerRuntimeClient, waitForContainer } = await import(
    'testcontainers'
  );
  const container = await new GenericContainer(image)
    .withExposedPorts(KAFKA_PORT)
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      // PLAINTEXT for clients outside, BROKER for the broker's own connections inside the container.
      KAFKA_LISTENERS: `PLAINTEXT://:${KAFKA_PORT},CONTROLLER://:9093,BROKER://:9094`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,BROKER:PLAINTEXT',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      CLUSTER_ID: 'Vki9q_VMR7GJ2n5MrQrhpA',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withCommand([
      'sh',
      '-c',
      `echo '${KAFKA_WAITING}'; while [ ! -f ${KAFKA_STARTER} ]; do sleep 0.1; done; exec sh ${KAFKA_STARTER}`,
    ])
    .withWaitStrategy(Wait.forLogMessage(KAFKA_WAITING))
    .start();
  const address = `${container.getHost()}:${container.getMappedPort(KAFKA_PORT)}`;
  try {
    await container.copyContentToContainer([
      {
        content: `export KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://${address},BROKER://localhost:9094\nexec /etc/kafka/docker/run\n`,
        target: KAFKA_STARTER,
        mode: 0o755,
      },
    ]);
    // The line `npm run kafka:local` waits for too.
    const client = await getContainerRuntimeClient();
    await waitForContainer(
      client,
      client.container.getById(container.getId()),
      Wait.forLogMessage('Kafka Server started').withStartupTimeout(STARTUP_TIMEOUT_MS),
      new BoundPorts(),
    );
  } catch (error) {
    await container.stop().catch(() => {}); // waitForContainer may have removed it already
    throw error;
  }
  return { address, stop: async () => void (await container.stop()) };
}

/** The distributed deployment's KurrentDB: one node, no TLS, none of the server's own projections. */
async function startKurrentDb(image: string): Promise<StartedServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(image)
    .withExposedPorts(2113)
    .withEnvironment({
      KURRENTDB_CLUSTER_SIZE: '1',
      KURRENTDB_INSECURE: 'true',
      KURRENTDB_RUN_PROJECTIONS: 'None',
      KURRENTDB_START_STANDARD_PROJECTIONS: 'false',
      // A container lives for one run: nothing to keep on disk.
      KURRENTDB_MEM_DB: 'true',
    })
    .withWaitStrategy(
      Wait.forAll([
        // The distributed deployment's health check, and the node taking writes (a single node elects
        // itself leader).
        Wait.forHttp('/health/live', 2113).forStatusCodeMatching((status) => status >= 200 && status < 300),
        Wait.forLogMessage('IS LEADER... SPARTA!'),
      ]),
    )
    .withStartupTimeout(STARTUP_TIMEOUT_MS)
    .start();
  return {
    address: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => void (await container.stop()),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
