import {
  type ClickStream,
  type Config,
  type Db,
  KafkaClickStream,
  type Logger,
  type PgNotifications,
  PostgresClickStream,
} from '@sniplink/platform';

/**
 * The click stream CLICK_STREAM names: the PostgreSQL click log on this process's (or thread's) database
 * pool, or the Kafka topic (which connects on first use: a broker that is down does not stop a start).
 */
export function createClickStream(
  config: Config['clickStream'],
  database: Db,
  notifications: PgNotifications,
  log: Logger,
): ClickStream {
  if (config.kind === 'kafka') {
    return new KafkaClickStream({
      brokers: config.brokers,
      topic: config.topic,
      partitionCount: config.partitions,
      log,
    });
  }
  return new PostgresClickStream({
    pool: database.pool,
    notifications,
    partitionCount: config.partitions,
  });
}
