import { Worker } from 'node:worker_threads';
import type { Logger, PublishOptions, StreamMessage } from '@sniplink/platform';
import type { ClickAnalyticsStatus } from '@sniplink/projections';
import type { ClickWorkerData } from './click-worker';

/** What the runtime needs of the click analytics consumer, in this thread or in a worker thread. */
export interface ClickConsumer {
  stop(): Promise<void>;
  status(): ClickAnalyticsStatus;
}

export interface ClickThreadOptions {
  /** The bundle's click-worker.mjs (scripts/build-server.mjs). */
  script: URL;
  /** The database (the main thread's connection string), the click stream, whether to consume, the log level. */
  workerData: ClickWorkerData;
  log: Logger;
  /** The thread's old generation, MB (default 64): five seconds of sums and a read's batches. */
  maxOldGenerationMb?: number;
}

const RESTART_AFTER_MS = 1_000;
// Within the 25-s grace of a signalled stop (process.ts), after the click buffer's last publish (10 s).
const STOP_TIMEOUT_MS = 10_000;

interface PublishReply {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The click stream's work on a worker thread: it publishes the click buffer's batches, and (unless told
 * not to) runs the click analytics consumer (ClickAnalytics). Reading, parsing, summing and writing clicks
 * cost the redirect's event loop about a sixth of its time, and their pauses showed in its p99; a
 * publish (serializing a batch, the driver, the socket) another ~5 %. The thread keeps the consumer's
 * guarantees (offsets and counters in one transaction), so a thread that dies loses only what it had not
 * written: it is started again and reads from the stored offsets. A publish in flight when it dies fails,
 * and the click buffer sends it again under the same publish id (counted once).
 */
export class ClickThread implements ClickConsumer {
  private worker: Worker | undefined;
  private publishes = 0;
  private readonly publishing = new Map<number, PublishReply>();
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private lastStatus: ClickAnalyticsStatus = {
    state: 'stopped',
    offsets: new Map(),
    counted: 0,
    duplicates: 0,
    rejected: 0,
  };
  /** Counts of threads that ended before this one: status() adds them up. */
  private readonly earlier = { counted: 0, duplicates: 0, rejected: 0 };

  constructor(private readonly options: ClickThreadOptions) {}

  start(): void {
    if (this.worker || this.stopping) return;
    const { script, workerData, log } = this.options;
    const worker = new Worker(script, {
      workerData,
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.maxOldGenerationMb ?? 64,
        // Young objects are short-lived here (a batch's messages): a small nursery is collected often
        // and cheaply, and keeps the process's RSS down.
        maxYoungGenerationSizeMb: 8,
      },
    });
    this.worker = worker;
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'status') this.lastStatus = message.status;
      else if (message.type === 'published') this.settlePublish(message.seq, message.error);
    });
    worker.on('error', (error) => log.error({ err: error }, 'click thread failed'));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failPublishesInFlight();
      this.earlier.counted += this.lastStatus.counted;
      this.earlier.duplicates += this.lastStatus.duplicates;
      this.earlier.rejected += this.lastStatus.rejected;
      this.lastStatus = { ...this.lastStatus, state: 'stopped', counted: 0, duplicates: 0, rejected: 0 };
      if (this.stopping) return;
      log.error(
        { code },
        'click thread ended; starting it again (analytics go on from the stored offsets, unanswered publishes are sent again)',
      );
      this.restartTimer = setTimeout(() => this.start(), RESTART_AFTER_MS);
      this.restartTimer.unref();
    });
  }

  /** Publishes a batch from the thread; fails while the thread is not running (the buffer retries). */
  publish(messages: StreamMessage<string>[], options: PublishOptions = {}): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('the click thread is not running'));
    const seq = ++this.publishes;
    return new Promise((resolve, reject) => {
      this.publishing.set(seq, { resolve, reject });
      worker.postMessage({
        type: 'publish',
        seq,
        id: options.id,
        keys: messages.map((message) => message.key),
        values: messages.map((message) => message.value),
      });
    });
  }

  private settlePublish(seq: number, error: string | undefined): void {
    const reply = this.publishing.get(seq);
    this.publishing.delete(seq);
    if (error === undefined) reply?.resolve();
    else reply?.reject(new Error(error));
  }

  private failPublishesInFlight(): void {
    for (const reply of this.publishing.values()) {
      reply.reject(new Error('the click thread ended before the publish was answered'));
    }
    this.publishing.clear();
  }

  status(): ClickAnalyticsStatus {
    const { counted, duplicates, rejected } = this.earlier;
    const last = this.lastStatus;
    return {
      ...last,
      offsets: new Map(last.offsets),
      counted: counted + last.counted,
      duplicates: duplicates + last.duplicates,
      rejected: rejected + last.rejected,
    };
  }

  /** Asks the thread to stop reading and write what it read; ends it if that takes over 10 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' });
    const timer = setTimeout(() => {
      this.options.log.error('click thread did not stop within 10 s; ending it');
      void worker.terminate();
    }, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}

type WorkerMessage =
  | { type: 'status'; status: ClickAnalyticsStatus }
  | { type: 'published'; seq: number; error?: string };
