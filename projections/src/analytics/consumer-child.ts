/**
 * The click analytics consumer in a process of its own, for the kill -9 test. Prints STARTED, then
 * consumes until it is killed. The click stream is the one CLICK_STREAM names (test/support/click-stream);
 * with Kafka, the parent's topic and group are passed on.
 * Usage: node --import tsx consumer-child.ts <connection string> <partitions> <maxBatchSize> <flushAfterClicks> [<topic> <group>]
 */
import { connectDatabase, createLogger, PgNotifications } from '@sniplink/platform';
import { createTestClickStream } from '../../../test/support/click-stream';
import { CLICKS_PROGRESS_CHANNEL, ClickAnalytics } from './consumer';

const [
  connectionString = '',
  partitions = '4',
  batchSize = '50',
  flushAfterClicks = batchSize,
  topic,
  groupId,
] = process.argv.slice(2);
const database = connectDatabase(connectionString, { poolSize: 4 });
const notifications = new PgNotifications({ connectionString });
const { stream } = createTestClickStream(
  { pool: database.pool, notifications },
  { partitionCount: Number(partitions), kafka: topic && groupId ? { topic, groupId } : undefined },
);
const analytics = new ClickAnalytics(
  {
    db: database.db,
    stream,
    log: createLogger('warn'),
    progress: notifications.channel(CLICKS_PROGRESS_CHANNEL),
  },
  {
    groupId,
    maxBatchSize: Number(batchSize),
    flushAfterClicks: Number(flushAfterClicks),
    flushAfterMs: 60_000,
    flushWhenQuietMs: 60_000,
  },
);
analytics.start();
process.stdout.write('STARTED\n');
