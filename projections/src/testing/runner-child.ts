/**
 * A projection runner in a process of its own, for the crash test: it applies half of batch number
 * `pauseAtBatch`, prints MID_BATCH, and hangs there until it is killed.
 * Usage: node --import tsx runner-child.ts <connection string> <pauseAtBatch> <batchSize>
 */
import { eventRegistry } from '@sniplink/contracts';
import {
  connectDatabase,
  createLogger,
  PgAdvisoryLocks,
  PgNotifications,
  PostgresEventStore,
} from '@sniplink/platform';
import type { Projection } from '../projection';
import { ProjectionRunner } from '../runner';
import { streamCatalogue } from '../stream-catalogue/projection';

const [connectionString = '', pauseAt = '3', batchSize = '100'] = process.argv.slice(2);
const database = connectDatabase(connectionString, { poolSize: 4 });
const notifications = new PgNotifications({ connectionString });
const eventStore = new PostgresEventStore({ pool: database.pool, notifications, registry: eventRegistry });
let batches = 0;

const pausing: Projection = {
  ...streamCatalogue,
  async apply(trx, events) {
    batches += 1;
    if (batches === Number(pauseAt)) {
      await streamCatalogue.apply(trx, events.slice(0, Math.floor(events.length / 2)));
      process.stdout.write('MID_BATCH\n');
      await new Promise(() => {});
    }
    await streamCatalogue.apply(trx, events);
  },
};

const runner = new ProjectionRunner(
  {
    db: database.db,
    eventStore,
    locks: new PgAdvisoryLocks({ pool: database.pool }),
    log: createLogger('warn'),
  },
  pausing,
  { batchSize: Number(batchSize) },
);
runner.start();
