#!/usr/bin/env node
// A real, single-node Kafka broker (KRaft mode) on loopback, for tests, CI and benchmarks:
//   npm run kafka:local              start it (fetching the broker with Maven the first time), print KAFKA_BROKERS
//   npm run kafka:local -- stop      stop it
//   npm run kafka:local -- stop --wipe   stop it and delete its topics and offsets
//   npm run kafka:local -- status
// Apache Kafka's broker is published on Maven Central: Maven resolves it (scripts/kafka-local/pom.xml) into
// its usual cache, and the broker runs from there on Java 17+. No Docker, no download outside the registries.
// Its files live in data/kafka-local/ (KAFKA_LOCAL_DIR); it listens on 127.0.0.1:19092 (KAFKA_LOCAL_PORT)
// and its controller on the port after it. Exit code 2: Java or Maven is missing (the reason is printed).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pom = path.join(root, 'scripts/kafka-local/pom.xml');
const dir = path.resolve(process.env.KAFKA_LOCAL_DIR ?? path.join(root, 'data/kafka-local'));
const port = Number(process.env.KAFKA_LOCAL_PORT ?? 19092);
const controllerPort = port + 1;
const files = {
  classpath: path.join(dir, 'classpath.txt'),
  pomHash: path.join(dir, 'classpath.pom-sha256'),
  properties: path.join(dir, 'server.properties'),
  logs: path.join(dir, 'logs'),
  pid: path.join(dir, 'broker.pid'),
  out: path.join(dir, 'broker.out'),
};
const brokers = `127.0.0.1:${port}`;
const STARTED = 'Kafka Server started';

const [command = 'start', ...flags] = process.argv.slice(2);
const commands = { start, stop, status };
if (!(command in commands)) {
  console.error(`unknown command "${command}": use start, stop [--wipe] or status`);
  process.exit(64);
}
await commands[command]();

async function start() {
  const running = runningPid();
  if (running && (await accepts(port))) {
    console.log(`Kafka is already running (pid ${running}).\nKAFKA_BROKERS=${brokers}`);
    return;
  }
  const missing = ['java', 'mvn'].filter(
    (tool) => spawnSync(tool, ['-version'], { stdio: 'ignore' }).status !== 0,
  );
  if (missing.length > 0) {
    console.error(`kafka:local needs Java 17+ and Maven on the PATH; missing: ${missing.join(', ')}.`);
    process.exit(2);
  }
  if (await accepts(port)) fail(`port ${port} is taken by another program: set KAFKA_LOCAL_PORT`);
  mkdirSync(dir, { recursive: true });
  const classpath = resolveClasspath();
  writeFileSync(files.properties, serverProperties());
  if (!existsSync(path.join(files.logs, 'meta.properties'))) {
    console.log('formatting the broker storage (KRaft)');
    java(classpath, ['kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', files.properties]);
  }
  const out = openSync(files.out, 'w');
  const broker = spawn(
    'java',
    ['-Xms256m', '-Xmx512m', '-Djava.awt.headless=true', '-cp', classpath, 'kafka.Kafka', files.properties],
    { detached: true, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  broker.unref();
  writeFileSync(files.pid, String(broker.pid));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (!alive(broker.pid)) fail(`the broker exited while starting; its output:\n${tail(files.out)}`);
    if (readFileSync(files.out, 'utf8').includes(STARTED) && (await accepts(port))) {
      console.log(
        `Kafka ${brokerVersion(classpath)} is running (pid ${broker.pid}).\nKAFKA_BROKERS=${brokers}`,
      );
      return;
    }
    await sleep(250);
  }
  process.kill(broker.pid, 'SIGKILL');
  fail(`the broker did not start within 90 s; its output:\n${tail(files.out)}`);
}

async function stop() {
  const pid = runningPid();
  if (pid) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) await sleep(200);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    console.log(`Kafka stopped (pid ${pid}).`);
  } else {
    console.log('Kafka is not running.');
  }
  rmSync(files.pid, { force: true });
  if (flags.includes('--wipe')) {
    rmSync(files.logs, { recursive: true, force: true });
    console.log(`deleted ${files.logs}`);
  }
}

async function status() {
  const pid = runningPid();
  if (pid && (await accepts(port))) console.log(`Kafka is running (pid ${pid}).\nKAFKA_BROKERS=${brokers}`);
  else {
    console.log('Kafka is not running.');
    process.exitCode = 1;
  }
}

/** The broker's classpath, asked of Maven once per version of the pom (the jars stay in ~/.m2). */
function resolveClasspath() {
  const pomHash = createHash('sha256').update(readFileSync(pom)).digest('hex');
  const known = existsSync(files.pomHash) && readFileSync(files.pomHash, 'utf8') === pomHash;
  if (!known || !existsSync(files.classpath)) {
    console.log('resolving the Kafka broker with Maven (first time: downloads it into ~/.m2)');
    const result = spawnSync(
      'mvn',
      ['-q', '-B', '-f', pom, 'dependency:build-classpath', `-Dmdep.outputFile=${files.classpath}`],
      { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
    );
    if (result.status !== 0) fail(`Maven could not resolve the broker:\n${result.stdout}${result.stderr}`);
    writeFileSync(files.pomHash, pomHash);
  }
  return readFileSync(files.classpath, 'utf8').trim();
}

function serverProperties() {
  return `${[
    '# Written by scripts/kafka-local.mjs on each start.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${files.logs}`,
    // Topics come from the app (the click stream creates its own), never from a typo in a test.
    'auto.create.topics.enable=false',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=4',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    // A test's consumer group forms at once instead of waiting 3 s for more members.
    'group.initial.rebalance.delay.ms=0',
    'num.network.threads=2',
    'num.io.threads=2',
    'log.retention.hours=24',
  ].join('\n')}\n`;
}

/** Kafka's cluster ids are 16 random bytes in URL-safe base64 without padding. */
function clusterId() {
  return Buffer.from(randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
}

function brokerVersion(classpath) {
  return /kafka_2\.13-([\d.]+)\.jar/.exec(classpath)?.[1] ?? '';
}

/** Runs a Kafka tool; its chatter is shown only when it fails. */
function java(classpath, args) {
  const result = spawnSync('java', ['-cp', classpath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) fail(`${args[0]} failed:\n${result.stdout}${result.stderr}`);
}

function runningPid() {
  if (!existsSync(files.pid)) return undefined;
  const pid = Number(readFileSync(files.pid, 'utf8'));
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function accepts(onPort) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: onPort });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function tail(file, lines = 30) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '';
}

function fail(message) {
  console.error(`kafka:local: ${message}`);
  process.exit(1);
}
