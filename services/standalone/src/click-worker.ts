/**
 * The click stream's work on a thread of its own (see click-thread.ts): the main thread answers
 * redirects; this one publishes the click buffer's batches and, where the process counts clicks, reads
 * the click stream, sums and writes the counters. It has its own pool and LISTEN connection to the
 * database the main thread started or was given.
 *
 * Messages in: `{ type: 'publish', seq, id, keys, values }`, `{ type: 'stop' }`. Out: `{ type: 'published',
 * seq, error? }` for each publish; `{ type: 'status', status }` every half second and once stopped.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type Config, connectDatabase, createLogger, PgNotifications } from '@sniplink/platform';
import { CLICKS_PROGRESS_CHANNEL, ClickAnalytics } from '@sniplink/projections';
import { createClickStream } from './click-stream';

export interface ClickWorkerData {
  connectionString: string;
  clickStream: Config['clickStream'];
  logLevel: Config['logLevel'];
  /** False in a process that only redirects: the thread publishes, another process counts. */
  consume: boolean;
  /** 0: clicks stay in the click log. */
  clickLogRetentionMs: number;
}

type MainMessage =
  | { type: 'stop' }
  | { type: 'publish'; seq: number; id?: string; keys: string[]; values: string[] };

const CONSUMER_NICE = 10;
const port = parentPort;
if (!port) throw new Error('click-worker runs as a worker thread');
const { connectionString, clickStream, logLevel, consume, clickLogRetentionMs } =
  workerData as ClickWorkerData;
const log = createLogger(logLevel).child({ thread: 'clicks' });
lowerThisThreadsPriority();
// Publishes, two partitions read at once, a flush, the hourly label roll-up.
const database = connectDatabase(connectionString, { poolSize: 4 });
const notifications = new PgNotifications({ connectionString });
const stream = createClickStream(clickStream, database, notifications, log);
const analytics = consume
  ? new ClickAnalytics(
      { db: database.db, stream, log, progress: notifications.channel(CLICKS_PROGRESS_CHANNEL) },
      { clickLogRetentionMs },
    )
  : undefined;
analytics?.start();
let stopping = false;

const report = () => {
  if (analytics) port.postMessage({ type: 'status', status: analytics.status() });
};
const reporter = setInterval(report, 500);

port.on('message', (message: MainMessage) => {
  if (message.type === 'publish') void publish(message);
  else if (message.type === 'stop') void stop();
});

/**
 * Starts the publish at once and waits only for its outcome: the stream encodes the batch before its
 * first wait, so the message's strings are garbage before any round trip.
 */
function publish({ seq, id, keys, values }: Extract<MainMessage, { type: 'publish' }>): Promise<void> {
  const published = stopping
    ? Promise.reject(new Error('the click thread is stopping'))
    : stream.publish(
        keys.map((key, i) => ({ key, value: values[i] })),
        { id },
      );
  return reply(seq, published);
}

async function reply(seq: number, published: Promise<void>): Promise<void> {
  try {
    await published;
    port?.postMessage({ type: 'published', seq });
  } catch (error) {
    port?.postMessage({
      type: 'published',
      seq,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

async function stop(): Promise<void> {
  stopping = true;
  clearInterval(reporter);
  try {
    await analytics?.stop();
  } catch (error) {
    log.error({ err: error }, 'click analytics did not stop cleanly; unwritten sums are read again on start');
  } finally {
    report();
    await stream.close();
    await notifications.close();
    await database.close();
    port?.close();
  }
}

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
    log.debug({ err: error }, "could not lower the click thread's priority");
  }
}
