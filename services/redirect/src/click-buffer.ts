import { randomUUID } from 'node:crypto';
import { type Click, clickMessage } from '@sniplink/contracts';
import type { ClickStream, Logger, StreamMessage } from '@sniplink/platform';

/** Where a ClickBuffer sends its batches: the click stream, or a thread that publishes to it. */
export type ClickPublisher = Pick<ClickStream<string>, 'publish'>;

export interface ClickBufferOptions {
  /** Carries each click as its message line (`clickMessage`). */
  stream: ClickPublisher;
  log: Logger;
  /** Clicks per publish (default 500). */
  maxBatch?: number;
  /** How long the first waiting click waits for company before it is published anyway (default 50 ms). */
  lingerMs?: number;
  /** Clicks held at most, waiting and in flight (default 100,000); beyond it new clicks are dropped. */
  capacity?: number;
  /**
   * Takes a click the full buffer would drop (the click spill writes it to disk); false when it cannot
   * either, and the click is dropped. Such a click may reach the stream before earlier ones.
   */
  overflow?: (message: StreamMessage<string>) => boolean;
}

export interface ClickBufferStats {
  /** Accepted and not yet published (waiting, in flight, or held for a retry). */
  buffered: number;
  published: number;
  /** Refused because the buffer was full or closed: lost clicks. */
  dropped: number;
  failedPublishes: number;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
const DROP_REPORT_INTERVAL_MS = 10_000;
const DEFAULT_FLUSH_TIMEOUT_MS = 10_000;

/**
 * Sits between the redirect and the click stream so that a redirect never waits on it. `push` only
 * queues; batches go out one at a time (kafkajs has no linger, so the batching is ours), which keeps
 * the order per link key. A failed batch is kept and retried with backoff while new clicks queue up
 * behind it; when the buffer is full, new clicks go to `overflow` (the spill) or are dropped, counted and
 * reported in the log.
 *
 * A publish that never settles (a server that stops answering) holds the queue: memory stays bounded
 * by `capacity` and `flush` gives up at its timeout; the stream's own timeouts are what end it.
 */
export class ClickBuffer {
  private readonly stream: ClickPublisher;
  private readonly log: Logger;
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly capacity: number;
  private readonly overflow: ((message: StreamMessage<string>) => boolean) | undefined;

  /** Clicks as the messages they go out as: encoded once, on the way in. */
  private readonly waiting: Fifo<StreamMessage<string>>;
  /** Counters of clicks ever accepted / taken into a batch / published: FIFO, so they order the queue. */
  private accepted = 0;
  private taken = 0;
  private published = 0;
  private dropped = 0;
  private failedPublishes = 0;

  private draining = false;
  private drainScheduled = false;
  private lingerTimer: NodeJS.Timeout | undefined;
  /** The oldest waiting click has lingered long enough: publish what waits even if it is not a full batch. */
  private lingerExpired = false;
  /** Every click accepted before this count must go out now (a `flush` is waiting for it). */
  private flushUpTo = 0;
  private readonly flushWaiters: FlushWaiter[] = [];
  private readonly retryPause = new Pause();
  private consecutiveFailures = 0;

  private unreportedDrops = 0;
  private lastDropReportAt = Number.NEGATIVE_INFINITY;
  private dropReportTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private stopped = false;

  constructor(options: ClickBufferOptions) {
    this.stream = options.stream;
    this.log = options.log;
    this.maxBatch = positive(options.maxBatch ?? 500, 'maxBatch');
    this.lingerMs = Math.max(0, options.lingerMs ?? 50);
    this.capacity = positive(options.capacity ?? 100_000, 'capacity');
    this.overflow = options.overflow;
    this.waiting = new Fifo();
  }

  /** Queues one click; never waits, never throws. False when it was dropped (buffer full or closed). */
  push(click: Click): boolean {
    if (this.closed) return this.noteDrop();
    if (this.accepted - this.published >= this.capacity) {
      return this.overflow?.(clickMessage(click)) || this.noteDrop();
    }
    this.waiting.push(clickMessage(click));
    this.accepted++;
    if (this.waiting.size >= this.maxBatch) this.scheduleDrain();
    else this.armLinger();
    return true;
  }

  stats(): ClickBufferStats {
    return {
      buffered: this.accepted - this.published,
      published: this.published,
      dropped: this.dropped,
      failedPublishes: this.failedPublishes,
    };
  }

  /**
   * Publishes every click accepted so far, without lingering and cutting a retry pause short. True once
   * they are all stored; false (and an error in the log) if `timeoutMs` passes first.
   */
  flush(timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS): Promise<boolean> {
    const target = this.accepted;
    if (this.published >= target) return Promise.resolve(true);
    this.flushUpTo = Math.max(this.flushUpTo, target);
    const done = new Promise<boolean>((resolve) => {
      // Not unref()ed, unlike the buffer's other timers: at shutdown the retry pause may be all that is
      // left, and an empty event loop would end the process before the flush is done or has given up.
      const timer = setTimeout(() => this.flushTimedOut(waiter), timeoutMs);
      const waiter: FlushWaiter = { target, resolve, timer };
      this.flushWaiters.push(waiter);
    });
    this.retryPause.wake();
    this.scheduleDrain();
    return done;
  }

  /** For shutdown: refuses new clicks, flushes, then stops every timer. */
  async close(timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS): Promise<boolean> {
    this.closed = true;
    const flushed = await this.flush(timeoutMs);
    this.stopped = true;
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.retryPause.wake();
    clearTimeout(this.dropReportTimer);
    this.dropReportTimer = undefined;
    this.reportDrops();
    return flushed;
  }

  // ---- batching ------------------------------------------------------------------------------------

  /** The first waiting click starts the linger clock; later ones ride along with it. */
  private armLinger(): void {
    if (this.lingerTimer || this.lingerExpired || this.stopped) return;
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = undefined;
      this.lingerExpired = true;
      this.startDrain();
    }, this.lingerMs);
    this.lingerTimer.unref();
  }

  /** Out of the caller's turn: `push` runs inside a redirect, and even a publish's first steps cost. */
  private scheduleDrain(): void {
    if (this.drainScheduled || this.draining) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.startDrain();
    }).unref();
  }

  private startDrain(): void {
    if (this.draining || this.stopped) return;
    this.draining = true;
    this.drain().catch((error: unknown) => this.log.error({ err: error }, 'click buffer drain failed'));
  }

  /** The one publisher: a batch at a time, so a link's clicks reach the stream in the order they came. */
  private async drain(): Promise<void> {
    try {
      for (let batch = this.takeDueBatch(); batch; batch = this.takeDueBatch()) {
        await this.publishUntilStored(batch);
        if (this.stopped) return;
      }
    } finally {
      // No await between the last look at the queue and this: a push in between would find a drain
      // that is about to end and rely on it.
      this.draining = false;
    }
    if (this.waiting.size > 0) this.armLinger();
  }

  private takeDueBatch(): Batch | undefined {
    const due =
      this.waiting.size >= this.maxBatch ||
      (this.waiting.size > 0 && (this.lingerExpired || this.taken < this.flushUpTo));
    if (!due) return undefined;
    const messages: StreamMessage<string>[] = [];
    while (messages.length < this.maxBatch && this.waiting.size > 0) {
      messages.push(this.waiting.shift() as StreamMessage<string>);
    }
    this.taken += messages.length;
    // Clicks left behind arrived after the one that started the clock: sending them early is harmless.
    if (this.waiting.size === 0) this.resetLinger();
    return { id: randomUUID(), messages };
  }

  private resetLinger(): void {
    this.lingerExpired = false;
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
  }

  // ---- publishing ----------------------------------------------------------------------------------

  /**
   * Retries the same batch until it is stored (or the buffer is stopped): nothing behind it overtakes.
   * Every attempt carries the batch's id, so an attempt that failed after its commit (a lost answer)
   * and its retry store the clicks once.
   */
  private async publishUntilStored(batch: Batch): Promise<void> {
    let delay = FIRST_RETRY_MS;
    while (!this.stopped) {
      try {
        await this.stream.publish(batch.messages, { id: batch.id });
        this.published += batch.messages.length;
        this.noteRecovery();
        this.settleFlushes();
        return;
      } catch (error) {
        this.failedPublishes++;
        this.consecutiveFailures++;
        this.log.warn(
          {
            err: error,
            clicks: batch.messages.length,
            buffered: this.accepted - this.published,
            retryInMs: delay,
          },
          'click stream publish failed; keeping the batch and retrying',
        );
        await this.retryPause.sleep(delay);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      }
    }
  }

  private noteRecovery(): void {
    if (this.consecutiveFailures === 0) return;
    this.log.info({ failedAttempts: this.consecutiveFailures }, 'click stream publishing again');
    this.consecutiveFailures = 0;
  }

  private settleFlushes(): void {
    for (let i = this.flushWaiters.length - 1; i >= 0; i--) {
      const waiter = this.flushWaiters[i];
      if (!waiter || this.published < waiter.target) continue;
      this.flushWaiters.splice(i, 1);
      clearTimeout(waiter.timer);
      waiter.resolve(true);
    }
  }

  private flushTimedOut(waiter: FlushWaiter): void {
    const index = this.flushWaiters.indexOf(waiter);
    if (index === -1) return;
    this.flushWaiters.splice(index, 1);
    this.log.error(
      { unpublished: waiter.target - this.published, buffered: this.accepted - this.published },
      'click flush timed out; these clicks are not in the click stream',
    );
    waiter.resolve(false);
  }

  // ---- drops ---------------------------------------------------------------------------------------

  /** Every drop is counted; the log hears of them at once, then at most every 10 s while they go on. */
  private noteDrop(): false {
    this.dropped++;
    this.unreportedDrops++;
    const sinceReport = Date.now() - this.lastDropReportAt;
    if (sinceReport >= DROP_REPORT_INTERVAL_MS) this.reportDrops();
    else this.armDropReport(DROP_REPORT_INTERVAL_MS - sinceReport);
    return false;
  }

  /** Drops that came after a report are reported when the interval ends, even if no more follow. */
  private armDropReport(inMs: number): void {
    if (this.dropReportTimer || this.stopped) return;
    this.dropReportTimer = setTimeout(() => {
      this.dropReportTimer = undefined;
      this.reportDrops();
    }, inMs);
    this.dropReportTimer.unref();
  }

  private reportDrops(): void {
    if (this.unreportedDrops === 0) return;
    this.log.warn(
      {
        dropped: this.unreportedDrops,
        droppedTotal: this.dropped,
        buffered: this.accepted - this.published,
        capacity: this.capacity,
        closed: this.closed,
      },
      'click buffer full or closed: clicks dropped',
    );
    this.unreportedDrops = 0;
    this.lastDropReportAt = Date.now();
  }
}

/** A batch of clicks and the id every publish attempt of it carries. */
interface Batch {
  id: string;
  messages: StreamMessage<string>[];
}

interface FlushWaiter {
  target: number;
  resolve: (flushed: boolean) => void;
  timer: NodeJS.Timeout;
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/** A timer-based sleep that `wake()` can end early (a flush should not sit out a 5 s backoff). */
class Pause {
  private timer: NodeJS.Timeout | undefined;
  private resolve: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.timer = setTimeout(() => this.wake(), ms);
      this.timer.unref();
    });
  }

  wake(): void {
    clearTimeout(this.timer);
    const resolve = this.resolve;
    this.timer = undefined;
    this.resolve = undefined;
    resolve?.();
  }
}

/**
 * A ring buffer: `shift` is O(1) (Array#shift moves every element) and so is `push`, amortised: it grows
 * by doubling and never shrinks, so it copies at most ~13 times in its life (up to a 100,000 capacity).
 */
class Fifo<T> {
  private items: (T | undefined)[] = new Array(16);
  private head = 0;
  size = 0;

  push(item: T): void {
    if (this.size === this.items.length) this.grow();
    this.items[(this.head + this.size) % this.items.length] = item;
    this.size++;
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.size--;
    return item;
  }

  private grow(): void {
    const items: (T | undefined)[] = new Array(this.items.length * 2);
    for (let i = 0; i < this.size; i++) items[i] = this.items[(this.head + i) % this.items.length];
    this.items = items;
    this.head = 0;
  }
}
