import {
  comparePositions,
  type Database,
  type EventStore,
  type Logger,
  type LogPosition,
  type PgNotifications,
  START,
  Wakeup,
} from '@sniplink/platform';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { applyNextBatch } from './batch';
import { CheckpointMovedError, loadCheckpoint } from './checkpoints';
import type { ProjectionProgress } from './progress';
import type { Projection } from './projection';

export interface RunnerDeps {
  db: Kysely<Database>;
  pool: pg.Pool;
  eventStore: EventStore;
  notifications: PgNotifications;
  log: Logger;
  /** Told of every checkpoint committed, for read-your-writes waiters in any process. */
  progress?: ProjectionProgress;
}

export interface RunnerOptions {
  batchSize?: number;
  /** How long to sleep when idle and no append notification arrives. */
  idlePollMs?: number;
  /** How long a standby waits before trying the lock again. */
  standbyRetryMs?: number;
}

export type RunnerState = 'stopped' | 'standby' | 'active';

/**
 * Keeps one projection up to date. Only the process holding the projection's advisory lock runs it;
 * the others wait as standbys and take over when it goes away.
 */
export class ProjectionRunner {
  private state: RunnerState = 'stopped';
  private checkpoint: LogPosition = START;
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** Set while active: true once the connection holding the advisory lock has failed. */
  private lockLost: () => boolean = () => false;
  private readonly wakeup = new Wakeup();
  private readonly waiters = new Set<{ position: LogPosition; resolve: (reached: boolean) => void }>();
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
    return new Promise((resolve) => {
      const waiter = {
        position,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
      this.wakeup.wake();
    });
  }

  private async run(): Promise<void> {
    let unlisten: (() => void) | undefined;
    try {
      while (!this.stopping) {
        try {
          // Inside the retry: a LISTEN connection that cannot be opened (the server restarting, a stop
          // during start-up) is a failed attempt like any other, not a runner that ends.
          unlisten ??= await this.deps.notifications.listen('es_appended', this.wakeup.wake);
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
    const client = await this.deps.pool.connect();
    const key = `projection:${this.projection.name}`;
    let lost = false;
    const onLost = () => {
      lost = true;
      this.wakeup.wake();
    };
    client.on('error', onLost);
    try {
      this.state = 'standby';
      while (!this.stopping) {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
          [key],
        );
        if (rows[0]?.locked) break;
        await this.wakeup.sleep(this.standbyRetryMs);
      }
      if (this.stopping) return;
      this.state = 'active';
      this.lockLost = () => lost;
      await work();
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    } finally {
      client.off('error', onLost);
      client.release(lost);
      this.state = 'standby';
    }
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
