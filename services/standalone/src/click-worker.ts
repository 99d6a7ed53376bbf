/**
 * The click analytics consumer on a thread of its own (see click-consumer-thread.ts): the app's main
 * thread answers redirects, this one reads the click stream, sums and writes the counters. It has its
 * own pool and LISTEN connection to the database the main thread started or was given.
 *
 * Messages in: `{ type: 'stop' }`. Out: `{ type: 'status', status }` every half second and once stopped.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type Config, connectDatabase, createLogger, PgNotifications } from '@sniplink/platform';
import { ClickAnalytics } from '@sniplink/projections';
import { createClickStream } from './click-stream';

export interface ClickWorkerData {
  connectionString: string;
  clickStream: Config['clickStream'];
  logLevel: Config['logLevel'];
  /** 0: clicks stay in the click log. */
  clickLogRetentionMs: number;
}

const CONSUMER_NICE = 10;
const port = parentPort;
if (!port) throw new Error('click-worker runs as a worker thread');
const { connectionString, clickStream, logLevel, clickLogRetentionMs } = workerData as ClickWorkerData;
const log = createLogger(logLevel).child({ thread: 'click-analytics' });
lowerThisThreadsPriority();
// Two partitions read at once, a flush, the hourly label roll-up.
const database = connectDatabase(connectionString, { poolSize: 4 });
const notifications = new PgNotifications(connectionString);
const analytics = new ClickAnalytics(
  { db: database.db, stream: createClickStream(clickStream, database, notifications), log, notifications },
  { clickLogRetentionMs },
);
analytics.start();

const report = () => port.postMessage({ type: 'status', status: analytics.status() });
const reporter = setInterval(report, 500);

port.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  clearInterval(reporter);
  void (async () => {
    try {
      await analytics.stop();
    } catch (error) {
      log.error(
        { err: error },
        'click analytics did not stop cleanly; unwritten sums are read again on start',
      );
    } finally {
      report();
      await notifications.close();
      await database.close();
      port.close();
    }
  })();
});

/**
 * Redirects first: on Linux the nice value is a thread's own, and 0 names the calling thread. Under full
 * load the consumer then takes the CPU the event loop leaves, instead of a third of its turns; it sums
 * longer and writes less often, and catches up as soon as the load eases. Where it is refused (another
 * OS), the thread runs at the process's priority.
 */
function lowerThisThreadsPriority(): void {
  try {
    os.setPriority(0, CONSUMER_NICE);
  } catch (error) {
    log.debug({ err: error }, "could not lower the click analytics thread's priority");
  }
}
