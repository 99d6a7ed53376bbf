/**
 * The click analytics consumer in a process of its own, for the kill -9 test. Prints STARTED, then
 * consumes until it is killed.
 * Usage: node --import tsx consumer-child.ts <connection string> <partitions> <maxBatchSize> <flushAfterClicks>
 */
import { connectDatabase, createLogger, PgNotifications, PostgresClickStream } from '@sniplink/platform';
import { CLICKS_PROGRESS_CHANNEL, ClickAnalytics } from './consumer';

const [connectionString = '', partitions = '4', batchSize = '50', flushAfterClicks = batchSize] =
  process.argv.slice(2);
const database = connectDatabase(connectionString, { poolSize: 4 });
const notifications = new PgNotifications({ connectionString });
const stream = new PostgresClickStream({
  pool: database.pool,
  notifications,
  partitionCount: Number(partitions),
  idlePollMs: 50,
});
const analytics = new ClickAnalytics(
  {
    db: database.db,
    stream,
    log: createLogger('warn'),
    progress: notifications.channel(CLICKS_PROGRESS_CHANNEL),
  },
  {
    maxBatchSize: Number(batchSize),
    flushAfterClicks: Number(flushAfterClicks),
    flushAfterMs: 60_000,
    flushWhenQuietMs: 60_000,
  },
);
analytics.start();
process.stdout.write('STARTED\n');
