import {
  comparePositions,
  type Database,
  type EventStore,
  type ExclusiveLocks,
  type HeldLock,
  type Logger,
  type LogPosition,
  START,
  Wakeup,
} from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { applyNextBatch } from './batch';
import { CheckpointMovedError, loadCheckpoint } from './checkpoints';
import type { ProjectionProgress } from './progress';
import type { Projection } from './projection';
import { type Waiter, waitIn } from './waiters';

export interface RunnerDeps {
  db: Kysely<Database>;
  /** Woken by its appends (`onAppended`), read with `readAll`. */
  eventStore: EventStore;
  /** One runner per projection across every process: the one holding the projection's lock. */
  locks: ExclusiveLocks;
  log: Logger;
  /** Told of every checkpoint committed, for read-your-writes waiters in any process. */
  progress?: ProjectionProgress;
}

export interface RunnerOptions {
  batchSize?: number;
  /** How long to sleep when idle and the event store tells of no append. */
  idlePollMs?: number;
  /** How long a standby waits before trying the lock again. */
  standbyRetryMs?: number;
}

export type RunnerState = 'stopped' | 'standby' | 'active';

/**
 * Keeps one projection up to date. Only the process holding the projection's lock runs it;
 * the others wait as standbys and take over when it goes away.
 */
export class ProjectionRunner {
  private state: RunnerState = 'stopped';
  private checkpoint: LogPosition = START;
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** Set while active: true once the projection's lock may have passed to another runner. */
  private lockLost: () => boolean = () => false;
  private readonly wakeup = new Wakeup();
  private readonly waiters = new Set<Waiter<{ position: LogPosition }>>();
  private readonly batchSize: number;
  private readonly idlePollMs: number;
  private readonly standbyRetryMs: number;

  constructor(
    private readonly deps: RunnerDeps,
    readonly projection: Projection,
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.idlePollMs = options.idlePollMs ?? 500;
    this.standbyRetryMs = options.standbyRetryMs ?? 2_000;
  }

  start(): void {
    this.stopping = false;
    this.loop ??= this.run().finally(() => {
      this.loop = undefined;
      this.state = 'stopped';
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeup.wake();
    await this.loop;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters.clear();
  }

  status(): { name: string; state: RunnerState; checkpoint: LogPosition } {
    return { name: this.projection.name, state: this.state, checkpoint: this.checkpoint };
  }

  /** Resolves true once the read model has passed `position`, false after `timeoutMs`. */
  waitUntilPast(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.checkpoint, position) >= 0) return Promise.resolve(true);
    const reached = waitIn(this.waiters, { position }, timeoutMs);
    this.wakeup.wake();
    return reached;
  }

  private async run(): Promise<void> {
    let unlisten: (() => void) | undefined;
    try {
      while (!this.stopping) {
        try {
          // Inside the retry: a store that cannot start listening (its server restarting, a stop
          // during start-up) is a failed attempt like any other, not a runner that ends.
          unlisten ??= await this.deps.eventStore.onAppended(this.wakeup.wake);
          await this.whileHoldingLock(() => this.follow());
        } catch (error) {
          if (!(error instanceof CheckpointMovedError)) {
            this.deps.log.error({ err: error, projection: this.projection.name }, 'projection batch failed');
          }
          await this.wakeup.sleep(1_000);
        }
      }
    } finally {
      unlisten?.();
    }
  }

  private async whileHoldingLock(work: () => Promise<void>): Promise<void> {
    this.state = 'standby';
    try {
      const lock = await this.acquireLock();
      if (!lock) return;
      try {
        this.state = 'active';
        this.lockLost = () => lock.lost();
        await work();
      } finally {
        await lock.release();
      }
    } finally {
      this.state = 'standby';
    }
  }

  /** Waits as a standby until this runner holds the projection's lock; undefined if stopped first. */
  private async acquireLock(): Promise<HeldLock | undefined> {
    const name = `projection:${this.projection.name}`;
    while (!this.stopping) {
      const lock = await this.deps.locks.tryAcquire(name, this.wakeup.wake);
      if (lock && !this.stopping) return lock;
      await lock?.release();
      if (!this.stopping) await this.wakeup.sleep(this.standbyRetryMs);
    }
    return undefined;
  }

  private async follow(): Promise<void> {
    this.checkpoint = await loadCheckpoint(this.deps.db, this.projection);
    while (!this.stopping && !this.lockLost()) {
      const step = await applyNextBatch(this.deps, this.projection, this.checkpoint, this.batchSize);
      const moved = comparePositions(step.checkpoint, this.checkpoint) !== 0;
      this.checkpoint = step.checkpoint;
      if (moved) {
        this.wakeWaiters();
        await this.deps.progress?.report(this.projection.name, this.checkpoint);
      }
      if (step.applied < this.batchSize) await this.wakeup.sleep(moved ? 0 : this.idlePollMs);
    }
  }

  private wakeWaiters(): void {
    for (const waiter of this.waiters) {
      if (comparePositions(this.checkpoint, waiter.position) >= 0) waiter.resolve(true);
    }
  }
}
