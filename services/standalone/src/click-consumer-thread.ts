import { Worker } from 'node:worker_threads';
import type { Logger } from '@sniplink/platform';
import type { ClickAnalyticsStatus } from '@sniplink/projections';
import type { ClickWorkerData } from './click-worker';

/** What the runtime needs of the click analytics consumer, in this thread or in a worker thread. */
export interface ClickConsumer {
  stop(): Promise<void>;
  status(): ClickAnalyticsStatus;
}

export interface ClickConsumerThreadOptions {
  /** The bundle's click-worker.mjs (scripts/build-server.mjs). */
  script: URL;
  /** The database (the main thread's connection string), the click stream and the log level. */
  workerData: ClickWorkerData;
  log: Logger;
  /** The thread's old generation, MB (default 64): five seconds of sums and a read's batches. */
  maxOldGenerationMb?: number;
}

const RESTART_AFTER_MS = 1_000;
const STOP_TIMEOUT_MS = 20_000;

/**
 * Runs the click analytics consumer (ClickAnalytics) on a worker thread: reading, parsing, summing and
 * writing clicks cost the redirect's event loop about a sixth of its time, and their pauses showed in
 * its p99. The thread keeps the consumer's guarantees (offsets and counters in one transaction), so a
 * thread that dies loses only what it had not written: it is started again and reads from the stored
 * offsets.
 */
export class ClickConsumerThread implements ClickConsumer {
  private worker: Worker | undefined;
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

  constructor(private readonly options: ClickConsumerThreadOptions) {}

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
    worker.on('message', (message: { type: string; status?: ClickAnalyticsStatus }) => {
      if (message.type === 'status' && message.status) this.lastStatus = message.status;
    });
    worker.on('error', (error) => log.error({ err: error }, 'click analytics thread failed'));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.earlier.counted += this.lastStatus.counted;
      this.earlier.duplicates += this.lastStatus.duplicates;
      this.earlier.rejected += this.lastStatus.rejected;
      this.lastStatus = { ...this.lastStatus, state: 'stopped', counted: 0, duplicates: 0, rejected: 0 };
      if (this.stopping) return;
      log.error({ code }, 'click analytics thread ended; starting it again from the stored offsets');
      this.restartTimer = setTimeout(() => this.start(), RESTART_AFTER_MS);
      this.restartTimer.unref();
    });
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

  /** Asks the thread to stop reading and write what it read; ends it if that takes over 20 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' });
    const timer = setTimeout(() => {
      this.options.log.error('click analytics thread did not stop within 20 s; ending it');
      void worker.terminate();
    }, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}
