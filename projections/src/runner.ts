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
import { processName, RebuildRunningError, rebuildBlueGreen } from './blue-green';
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
  /** Stops a rebuild this runner started for a new version (it resumes on the next start). */
  private rebuildAbort = new AbortController();
  /** The last batch failed: the console shows the projection failed until one passes. */
  private failing = false;
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
    this.rebuildAbort = new AbortController();
    this.loop ??= this.run().finally(() => {
      this.loop = undefined;
      this.state = 'stopped';
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.rebuildAbort.abort(new Error('the runner stopped'));
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
          if (
            !(error instanceof CheckpointMovedError || error instanceof RebuildRunningError || this.stopping)
          ) {
            this.deps.log.error({ err: error, projection: this.projection.name }, 'projection batch failed');
            await this.recordError(error);
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
        await this.recordHolder(processName);
        await work();
      } finally {
        await this.recordHolder(null).catch(() => undefined);
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
    await this.rebuildIfVersionChanged();
    this.checkpoint = await loadCheckpoint(this.deps.db, this.projection);
    // A rebuild may have moved the read model past what waiters wait for.
    this.wakeWaiters();
    while (!this.stopping && !this.lockLost()) {
      const step = await applyNextBatch(this.deps, this.projection, this.checkpoint, this.batchSize);
      if (this.failing) await this.recordRecovered();
      const moved = comparePositions(step.checkpoint, this.checkpoint) !== 0;
      this.checkpoint = step.checkpoint;
      if (moved) {
        this.wakeWaiters();
        await this.deps.progress?.report(this.projection.name, this.checkpoint);
      }
      if (step.applied < this.batchSize) await this.wakeup.sleep(moved ? 0 : this.idlePollMs);
    }
  }

  /**
   * A new version of the projection (its code changed) builds its tables blue/green while the old ones
   * keep answering, then swaps them in; a first run (no checkpoint yet) starts on its empty tables.
   */
  private async rebuildIfVersionChanged(): Promise<void> {
    const stored = await this.deps.db
      .selectFrom('projection_checkpoints')
      .select('version')
      .where('name', '=', this.projection.name)
      .executeTakeFirst();
    if (!stored || stored.version === this.projection.version) return;
    this.deps.log.info(
      { projection: this.projection.name, from: stored.version, to: this.projection.version },
      'projection version changed: rebuilding it beside the live tables',
    );
    await rebuildBlueGreen(this.deps, this.projection, {
      requestedBy: 'system',
      signal: this.rebuildAbort.signal,
    });
  }

  private async recordHolder(holder: string | null): Promise<void> {
    const values = { holder, held_since: holder ? new Date() : null };
    if (holder) {
      await this.deps.db
        .insertInto('projection_runs')
        .values({ name: this.projection.name, ...values })
        .onConflict((oc) => oc.column('name').doUpdateSet(values))
        .execute();
      return;
    }
    // A runner letting go clears only its own name (another process may hold the projection by now).
    await this.deps.db
      .updateTable('projection_runs')
      .set(values)
      .where('name', '=', this.projection.name)
      .where('holder', '=', processName)
      .execute();
  }

  private async recordError(error: unknown): Promise<void> {
    this.failing = true;
    const values = {
      failing: true,
      last_error: error instanceof Error ? error.message : String(error),
      last_error_at: new Date(),
    };
    await this.deps.db
      .insertInto('projection_runs')
      .values({ name: this.projection.name, ...values })
      .onConflict((oc) => oc.column('name').doUpdateSet(values))
      .execute()
      .catch(() => undefined);
  }

  private async recordRecovered(): Promise<void> {
    this.failing = false;
    await this.deps.db
      .updateTable('projection_runs')
      .set({ failing: false })
      .where('name', '=', this.projection.name)
      .execute();
  }

  private wakeWaiters(): void {
    for (const waiter of this.waiters) {
      if (comparePositions(this.checkpoint, waiter.position) >= 0) waiter.resolve(true);
    }
  }
}
