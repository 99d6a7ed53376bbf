import {
  type ClickStream,
  type Config,
  type Db,
  type PgNotifications,
  PostgresClickStream,
} from '@sniplink/platform';

/** The click stream CLICK_STREAM names, on this process's (or thread's) database pool. */
export function createClickStream(
  config: Config['clickStream'],
  database: Db,
  notifications: PgNotifications,
): ClickStream {
  if (config.kind !== 'postgres') {
    throw new Error('CLICK_STREAM=kafka: the Kafka adapter is not built yet; use CLICK_STREAM=postgres');
  }
  return new PostgresClickStream({
    pool: database.pool,
    notifications,
    partitionCount: config.partitions,
  });
}
