import {
  type ClickStream,
  KafkaClickStream,
  type PgNotifications,
  PostgresClickStream,
} from '@sniplink/platform';
import type pg from 'pg';

/**
 * The click stream a suite runs on: PostgreSQL by default, Kafka with `CLICK_STREAM=kafka` and
 * `KAFKA_BROKERS` (a running broker: `npm run kafka:local` prints it), as CI's third run does.
 */
export type ClickStreamKind = 'postgres' | 'kafka';

export const clickStreamKind: ClickStreamKind = process.env.CLICK_STREAM === 'kafka' ? 'kafka' : 'postgres';

const brokers = process.env.KAFKA_BROKERS?.split(',')
  .map((broker) => broker.trim())
  .filter((broker) => broker !== '');

/**
 * True when this run's click stream is `kind`; otherwise prints that `test` is skipped and why: for
 * `it.runIf`, so that a test about one stream's own behaviour is never skipped in silence.
 */
export function onClickStream(kind: ClickStreamKind, test: string, why: string): boolean {
  if (clickStreamKind === kind) return true;
  console.warn(`skipped on the ${clickStreamKind} click stream: "${test}" (${why})`);
  return false;
}

/**
 * True when the suite cannot run on the stream asked for (Kafka without a broker), after printing why:
 * for `describe.skipIf`.
 */
export function clickStreamMissing(suite: string): boolean {
  if (clickStreamKind !== 'kafka' || (brokers && brokers.length > 0)) return false;
  console.warn(
    `${suite}: skipped: CLICK_STREAM=kafka but KAFKA_BROKERS is not set (start a broker with \`npm run kafka:local\`)`,
  );
  return true;
}

export interface TestClickStream {
  stream: ClickStream;
  kind: ClickStreamKind;
  /**
   * Kafka: this stream's own topic and consumer group (the broker is shared by test files running at
   * once: a group whose members read different topics would be handed each other's partitions).
   */
  kafka?: { topic: string; groupId: string };
  /** Messages the log still holds (what `deleteRecords` has not deleted). */
  messagesInLog(): Promise<number>;
  close(): Promise<void>;
}

export interface TestClickStreamOptions {
  partitionCount: number;
  /** PostgreSQL: how long an idle consumer sleeps between polls (default 50 ms, for quick tests). */
  idlePollMs?: number;
  /** Kafka: the topic and group of another stream, to reach the same one from another process. */
  kafka?: { topic: string; groupId: string };
}

let streams = 0;

/** A click stream of the kind asked for: on the database's own tables, or a new Kafka topic. */
export function createTestClickStream(
  database: { pool: pg.Pool; notifications: PgNotifications },
  options: TestClickStreamOptions,
): TestClickStream {
  if (clickStreamKind === 'kafka') {
    const unique = `${process.pid}-${Date.now()}-${++streams}`;
    const kafka = options.kafka ?? { topic: `clicks-test-${unique}`, groupId: `analytics-test-${unique}` };
    const stream = new KafkaClickStream({
      brokers: brokers ?? [],
      topic: kafka.topic,
      partitionCount: options.partitionCount,
    });
    return {
      stream,
      kind: 'kafka',
      kafka,
      messagesInLog: async () =>
        sum([...(await stream.partitionBounds()).values()].map(({ low, high }) => high - low)),
      close: () => stream.close(),
    };
  }
  const stream = new PostgresClickStream({
    pool: database.pool,
    notifications: database.notifications,
    partitionCount: options.partitionCount,
    idlePollMs: options.idlePollMs ?? 50,
  });
  return {
    stream,
    kind: 'postgres',
    messagesInLog: async () => {
      const { rows } = await database.pool.query<{ n: string }>(
        'SELECT coalesce(sum(last_offset - first_offset + 1), 0)::text AS n FROM cs_chunks',
      );
      return Number(rows[0]?.n);
    },
    close: () => stream.close(),
  };
}

const sum = (values: bigint[]) => Number(values.reduce((total, value) => total + value, 0n));
