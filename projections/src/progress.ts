import {
  type Broadcast,
  comparePositions,
  type Database,
  decodePosition,
  encodePosition,
  type LogPosition,
  type ReadModel,
  type ReadModelWaiter,
} from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { type Waiter, waitIn } from './waiters';

/** The name of the broadcast that ProjectionProgress is given (the composition root opens it). */
export const PROJECTION_PROGRESS_CHANNEL = 'projection_progress';

/**
 * Where each projection's read model is, as every process can learn it: runners publish each checkpoint
 * they commit on a broadcast (this process at once, the others soon after); anyone may wait for a position.
 * Used for read-your-writes: a command's answer waits until the read models the user looks at next
 * have passed the event it appended (docs/architecture.md, "Read-your-writes").
 */
export class ProjectionProgress implements ReadModelWaiter {
  private readonly known = new Map<string, LogPosition>();
  private readonly waiters = new Set<Waiter<{ name: string; position: LogPosition }>>();
  private listening: Promise<unknown> | undefined;
  private readonly followers = new Set<{ name: string; onAdvance: () => void }>();

  private readonly db: Kysely<Database>;
  private readonly broadcast: Broadcast;

  /** `broadcast`: `<projection> <position>` messages; an empty one means "read the checkpoints again". */
  constructor(deps: { db: Kysely<Database>; broadcast: Broadcast }) {
    this.db = deps.db;
    this.broadcast = deps.broadcast;
  }

  /** Called by a runner after committing a batch. */
  async report(name: string, position: LogPosition): Promise<void> {
    await this.broadcast.publish(`${name} ${encodePosition(position)}`);
  }

  /** True once `readModel` has passed `position`; false after `timeoutMs` (the write is stored anyway). */
  async waitFor({ name }: ReadModel, position: LogPosition, timeoutMs = 2_000): Promise<boolean> {
    await this.listen();
    if (this.hasPassed(name, position) || (await this.storedHasPassed(name, position))) return true;
    const reached = await waitIn(this.waiters, { name, position }, timeoutMs);
    return reached || this.storedHasPassed(name, position);
  }

  /**
   * Calls `onAdvance` whenever `readModel`'s projection commits a batch, in this process or another, and when
   * messages may have been missed (a lost connection is back): a read model's followers read it again.
   * Resolves, with the way to stop, once later batches will be heard.
   */
  async onAdvance({ name }: ReadModel, onAdvance: () => void): Promise<() => void> {
    const follower = { name, onAdvance };
    this.followers.add(follower);
    try {
      await this.listen();
    } catch (error) {
      this.followers.delete(follower);
      throw error;
    }
    return () => this.followers.delete(follower);
  }

  private listen(): Promise<unknown> {
    this.listening ??= this.broadcast
      .listen((payload) => this.onProgress(payload))
      .catch((error: unknown) => {
        this.listening = undefined; // the next wait tries again
        throw error;
      });
    return this.listening;
  }

  private onProgress(payload: string): void {
    // Empty: messages may have been missed (a lost connection is back); the table has what they said.
    if (payload === '') {
      this.recheckWaiters();
      for (const follower of this.followers) follower.onAdvance();
      return;
    }
    const [name, encoded] = payload.split(' ');
    if (!name || !encoded) return;
    const position = decodePosition(encoded);
    const previous = this.known.get(name);
    if (!previous || comparePositions(position, previous) > 0) {
      this.known.set(name, position);
      for (const follower of this.followers) if (follower.name === name) follower.onAdvance();
    }
    for (const waiter of this.waiters) if (this.hasPassed(waiter.name, waiter.position)) waiter.resolve(true);
  }

  private recheckWaiters(): void {
    for (const name of new Set([...this.waiters].map((waiter) => waiter.name))) {
      this.readStored(name).catch(() => {}); // a waiter still waiting times out and looks again
    }
  }

  private hasPassed(name: string, position: LogPosition): boolean {
    const known = this.known.get(name);
    return known !== undefined && comparePositions(known, position) >= 0;
  }

  private async storedHasPassed(name: string, position: LogPosition): Promise<boolean> {
    await this.readStored(name);
    return this.hasPassed(name, position);
  }

  /** Reads a projection's committed checkpoint; what it finds wakes the waiters it satisfies. */
  private async readStored(name: string): Promise<void> {
    const row = await this.db
      .selectFrom('projection_checkpoints')
      .select(['commit_position', 'prepare_position'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (row) this.onProgress(`${name} ${row.commit_position}/${row.prepare_position}`);
  }
}
