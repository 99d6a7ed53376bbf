import { randomUUID } from 'node:crypto';
import { type Logger, type PublishOptions, type StreamMessage, Wakeup } from '@sniplink/platform';
import type { ClickPublisher } from './click-buffer';
import { type SpilledBatch, type SpillFiles, SpillFullError, type SpillSegment } from './spill-files';

export interface ClickSpillOptions {
  /** Where batches go when it takes them: the click stream, or the click thread that publishes to it. */
  stream: ClickPublisher;
  files: SpillFiles;
  log: Logger;
  /**
   * A publish not answered within this long is spilled too (default 3 s): the buffer behind it moves on.
   * It may still commit; its replay carries the same publish id, so the clicks are counted once (stored
   * once by the PostgreSQL stream; Kafka may store both, and the analytics consumer counts one).
   */
  spillAfterMs?: number;
}

export interface ClickSpillStats {
  /** False while the spill is full: batches then wait in the click buffer, which drops past its capacity. */
  ok: boolean;
  files: number;
  bytes: number;
  maxBytes: number;
  /** Clicks written to the spill / published from it by this process. */
  spilled: number;
  replayed: number;
  /** Batches the spill could not take (full, or the disk failed); they stayed in the click buffer. */
  refusedBatches: number;
  /** Clicks a full buffer handed over that the spill then could not write either: lost. */
  dropped: number;
}

const DEFAULT_SPILL_AFTER_MS = 3_000;
/** Clicks a full buffer hands over wait for their write at most this many (~1.6 MB), in batches of this size. */
const MAX_OVERFLOW_WAITING = 10_000;
const OVERFLOW_BATCH = 2_000;
const FIRST_REPLAY_RETRY_MS = 500;
const MAX_REPLAY_RETRY_MS = 5_000;
const REFUSAL_REPORT_INTERVAL_MS = 10_000;

/**
 * Stands between the click buffer and the click stream: a batch the stream refuses (or does not answer
 * within `spillAfterMs`) is written to a local file (`SpillFiles`) and counts as delivered, so the buffer
 * neither holds it in memory nor drops what comes after it; clicks a full buffer would drop are written
 * too (`takeOverflow`). While anything is spilled, new batches join
 * the spill behind it (order kept) and one replayer publishes the spill, oldest first, with backoff; once
 * it is empty, batches go straight to the stream again. A spill that is full refuses: the buffer then
 * keeps retrying that batch in memory as it did without a spill, and drops (counted) past its capacity.
 */
export class ClickSpill implements ClickPublisher {
  private readonly stream: ClickPublisher;
  private readonly files: SpillFiles;
  private readonly log: Logger;
  private readonly spillAfterMs: number;
  private replaying: Promise<void> | undefined;
  private closing = false;
  private readonly pause = new Wakeup();
  private spilled = 0;
  private replayed = 0;
  private refusedBatches = 0;
  private dropped = 0;
  private full = false;
  private overflowWaiting: StreamMessage<string>[] = [];
  private overflowWriting: Promise<void> | undefined;
  private lastRefusalReportAt = Number.NEGATIVE_INFINITY;
  /** Spilling since the stream last took every batch: the log hears when it starts and ends. */
  private outage: { spilled: number; since: number } | undefined;

  constructor(options: ClickSpillOptions) {
    this.stream = options.stream;
    this.files = options.files;
    this.log = options.log;
    this.spillAfterMs = options.spillAfterMs ?? DEFAULT_SPILL_AFTER_MS;
  }

  /** Takes over a previous run's spill and starts replaying it. */
  async open(): Promise<void> {
    await this.files.open();
    if (this.files.hasBatches()) this.startReplay();
  }

  async publish(messages: StreamMessage<string>[], options: PublishOptions = {}): Promise<void> {
    const batch: SpilledBatch = { id: options.id ?? randomUUID(), messages };
    if (this.files.hasBatches()) {
      if (await this.spill(batch, undefined)) return;
      return this.stream.publish(messages, { id: batch.id }); // the spill is full: try the stream itself
    }
    try {
      await answeredWithin(this.stream.publish(messages, { id: batch.id }), this.spillAfterMs);
    } catch (error) {
      if (!(await this.spill(batch, error))) throw error;
    }
  }

  /**
   * The click buffer's `overflow`: a click it has no room for is written to the spill (in batches of its
   * own, with ids of their own) rather than dropped. False when the spill is full or too far behind.
   */
  readonly takeOverflow = (message: StreamMessage<string>): boolean => {
    if (this.closing || this.full || this.overflowWaiting.length >= MAX_OVERFLOW_WAITING) return false;
    this.overflowWaiting.push(message);
    this.overflowWriting ??= this.writeOverflow().finally(() => {
      this.overflowWriting = undefined;
    });
    return true;
  };

  stats(): ClickSpillStats {
    return {
      ok: !this.full,
      ...this.files.stats(),
      spilled: this.spilled,
      replayed: this.replayed,
      refusedBatches: this.refusedBatches,
      dropped: this.dropped,
    };
  }

  /**
   * Writes what the buffer handed over, stops replaying (what is left is replayed at the next start) and
   * closes the file being written.
   */
  async close(timeoutMs = 2_000): Promise<void> {
    this.closing = true;
    await this.overflowWriting;
    this.pause.wake();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.replaying, gaveUp]);
    clearTimeout(timer);
    await this.files.close();
  }

  // ---- spilling ------------------------------------------------------------------------------------

  /** True once the batch is on disk; false when the spill could not take it (the caller keeps it). */
  private async spill(batch: SpilledBatch, cause: unknown): Promise<boolean> {
    try {
      await this.files.append(batch);
    } catch (error) {
      this.noteRefusal(error);
      return false;
    }
    this.full = false;
    this.spilled += batch.messages.length;
    if (!this.outage) {
      this.outage = { spilled: 0, since: Date.now() };
      this.log.warn(
        { err: cause, clicks: batch.messages.length },
        'click stream does not take clicks; spilling them to DATA_DIR/click-spill until it does',
      );
    }
    this.outage.spilled += batch.messages.length;
    this.startReplay();
    return true;
  }

  /** One writer: batches of what waits, until nothing does. What the spill refuses is lost, and counted. */
  private async writeOverflow(): Promise<void> {
    await Promise.resolve(); // let the redirects of this turn add their clicks first
    while (this.overflowWaiting.length > 0) {
      const messages = this.overflowWaiting.splice(0, OVERFLOW_BATCH);
      if (!(await this.spill({ id: randomUUID(), messages }, undefined))) this.dropped += messages.length;
    }
  }

  private noteRefusal(error: unknown): void {
    this.refusedBatches++;
    if (error instanceof SpillFullError) this.full = true;
    if (Date.now() - this.lastRefusalReportAt < REFUSAL_REPORT_INTERVAL_MS) return;
    this.lastRefusalReportAt = Date.now();
    this.log.error(
      { err: error, refusedBatches: this.refusedBatches, ...this.files.stats() },
      'click spill cannot take more clicks; they wait in the click buffer, which drops past its capacity',
    );
  }

  // ---- replaying -----------------------------------------------------------------------------------

  private startReplay(): void {
    if (this.replaying || this.closing) return;
    this.replaying = this.replayAll();
  }

  /** Replays segment after segment until the spill is empty (or the spill is closed). */
  private async replayAll(): Promise<void> {
    for (;;) {
      const segment = await this.files.nextSegment().catch((error: unknown) => {
        this.log.error({ err: error }, 'could not read the click spill');
        return undefined;
      });
      // No await between finding it empty and saying so: a batch spilled meanwhile starts a new replay.
      if (!segment || this.closing) {
        this.replaying = undefined;
        if (!segment) this.endOutage();
        return;
      }
      if (!(await this.replaySegment(segment))) {
        this.replaying = undefined;
        return;
      }
      await this.files.remove(segment).then(
        () => {
          this.full = false; // room again
        },
        (error: unknown) => {
          this.log.error({ err: error, file: segment.file }, 'could not delete a replayed click spill file');
        },
      );
    }
  }

  /** False when the spill was closed before every batch was published. */
  private async replaySegment(segment: SpillSegment): Promise<boolean> {
    for (const batch of segment.batches) {
      if (!(await this.publishUntilStored(batch))) return false;
      this.replayed += batch.messages.length;
    }
    return true;
  }

  private async publishUntilStored(batch: SpilledBatch): Promise<boolean> {
    for (let delay = FIRST_REPLAY_RETRY_MS; !this.closing; delay = Math.min(delay * 2, MAX_REPLAY_RETRY_MS)) {
      try {
        await this.stream.publish(batch.messages, { id: batch.id });
        return true;
      } catch (error) {
        this.log.debug({ err: error, retryInMs: delay }, 'click spill replay: the stream refused; retrying');
        await this.pause.sleep(delay);
      }
    }
    return false;
  }

  private endOutage(): void {
    if (!this.outage) return;
    this.log.info(
      { replayed: this.outage.spilled, spilledForMs: Date.now() - this.outage.since },
      'click spill replayed; publishing straight to the click stream again',
    );
    this.outage = undefined;
  }
}

/** Rejects when the publish has not settled within `ms`; the publish itself goes on. */
function answeredWithin(publish: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from the click stream within ${ms} ms`)), ms);
    publish.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
