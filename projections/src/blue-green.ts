import { hostname } from 'node:os';
import {
  comparePositions,
  type Database,
  type EventStore,
  type ExclusiveLocks,
  type HeldLock,
  type Logger,
  type LogPosition,
  type RecordedEvent,
  START,
} from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import { type Projection, typesOf } from './projection';
import { withReadModels } from './read-models';

/** This process as the console names it: the host and the process id. */
export const processName = `${hostname()} pid ${process.pid}`;

export class RebuildRunningError extends Error {
  constructor(readonly projection: string) {
    super(`A rebuild of projection ${projection} is already running; wait for it to finish.`);
    this.name = 'RebuildRunningError';
  }
}

export interface BlueGreenDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  locks: ExclusiveLocks;
  log: Logger;
  /** Told once the new tables are in place, so read-your-writes waiters and followers look again. */
  progress?: { report(name: string, position: LogPosition): Promise<void> };
}

export interface RebuildProgress {
  projection: string;
  /** Events applied to the new copy so far (over every attempt). */
  applied: number;
  /** Events the log holds after the new copy's position, of every type: what is left at most. */
  remaining: number;
  eventsPerSecond: number;
  /** Seconds left at the current pace; null until a pace is known. */
  etaSeconds: number | null;
}

export interface RebuildOutcome {
  name: string;
  events: number;
  ms: number;
  /** How long readers of the read model waited on the swap. */
  swapMs: number;
}

export interface BlueGreenOptions {
  batchSize?: number;
  /** Who asked (an admin's id, `operator`, `system`), kept with the rebuild for the console. */
  requestedBy?: string;
  onProgress?: (progress: RebuildProgress) => void;
  /** Stops the rebuild between batches; the new copy stays, and the next rebuild resumes it. */
  signal?: AbortSignal;
  /** The rebuild's lock (`acquireRebuildLock`), when the caller took it already; it is released at the end. */
  lock?: HeldLock;
}

/** The lock of a projection's rebuild, or RebuildRunningError when another rebuild of it holds it. */
export async function acquireRebuildLock(locks: ExclusiveLocks, name: string): Promise<HeldLock> {
  const lock = await locks.tryAcquire(rebuildLockOf(name));
  if (!lock) throw new RebuildRunningError(name);
  return lock;
}

/** Where a projection's new copy is built: a schema of its own, named after the projection. */
export const shadowSchemaOf = (name: string) => `rm_shadow_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
const retiredSchemaOf = (name: string) => `rm_retired_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;

/** The lock that keeps one rebuild of a projection at a time, across every process. */
export const rebuildLockOf = (name: string) => `projection-rebuild:${name}`;

/**
 * Rebuilds a projection blue/green: its tables are created again, empty, in a schema of their own and filled
 * from the start of the log while the live tables keep answering and the runner keeps them current. Once the
 * new copy has caught up, one short transaction holds the live checkpoint (the runner's next batch waits on
 * it), applies the last events to the new copy, and moves the new tables in place of the old ones (catalogue
 * renames: readers wait only for that). The runner's waiting batch then finds its checkpoint moved and goes
 * on from the new copy's position. A rebuild stopped on the way (a crash, a stop) resumes where the new copy
 * is, as long as the projection's version is the same.
 */
export async function rebuildBlueGreen(
  deps: BlueGreenDeps,
  projection: Projection,
  options: BlueGreenOptions = {},
): Promise<RebuildOutcome> {
  const lock = options.lock ?? (await acquireRebuildLock(deps.locks, projection.name));
  const started = performance.now();
  try {
    const from = await prepareShadow(deps.db, projection, options.requestedBy ?? 'system');
    const built = await buildShadow(deps, projection, from, options);
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('rebuild stopped');
    const swap = await swapIn(deps, projection, built.position);
    const ms = Math.round(performance.now() - started);
    deps.log.info(
      { projection: projection.name, events: built.applied + swap.tail, ms, swapMs: swap.swapMs },
      'projection rebuilt',
    );
    return { name: projection.name, events: built.applied + swap.tail, ms, swapMs: swap.swapMs };
  } catch (error) {
    if (!options.signal?.aborted) {
      await deps.db
        .updateTable('projection_rebuilds')
        .set({ state: 'failed', error: messageOf(error), updated_at: new Date(), holder: null })
        .where('name', '=', projection.name)
        .execute()
        .catch(() => undefined);
    }
    throw error;
  } finally {
    await deps.db
      .updateTable('projection_rebuilds')
      .set({ holder: null })
      .where('name', '=', projection.name)
      .execute()
      .catch(() => undefined);
    await lock.release();
  }
}

/**
 * The new copy's position: where an unfinished rebuild of the same version left it, or the start, with its
 * tables created again from the live tables' definitions (columns, defaults, constraints, indexes).
 */
async function prepareShadow(db: Kysely<Database>, projection: Projection, requestedBy: string) {
  const schema = shadowSchemaOf(projection.name);
  const row = await db
    .selectFrom('projection_rebuilds')
    .selectAll()
    .where('name', '=', projection.name)
    .executeTakeFirst();
  const exists = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ${schema}) AS found`.execute(db);
  if (
    row &&
    row.version === projection.version &&
    (row.state === 'building' || row.state === 'swapping') &&
    exists.rows[0]?.found
  ) {
    await db
      .updateTable('projection_rebuilds')
      .set({ holder: processName, state: 'building', updated_at: new Date() })
      .where('name', '=', projection.name)
      .execute();
    return {
      commit: BigInt(row.commit_position),
      prepare: BigInt(row.prepare_position),
      applied: Number(row.applied),
    };
  }
  await db.transaction().execute(async (trx) => {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(trx);
    await sql`DROP SCHEMA IF EXISTS ${sql.id(retiredSchemaOf(projection.name))} CASCADE`.execute(trx);
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(trx);
    for (const table of projection.tables) {
      await sql`CREATE TABLE ${sql.id(schema, table)} (LIKE ${sql.id('public', table)} INCLUDING ALL)`.execute(
        trx,
      );
    }
    const fresh = {
      version: projection.version,
      state: 'building',
      commit_position: START.commit.toString(),
      prepare_position: START.prepare.toString(),
      applied: 0,
      events_per_second: null,
      eta_seconds: null,
      holder: processName,
      requested_by: requestedBy,
      started_at: new Date(),
      updated_at: new Date(),
      finished_at: null,
      swap_ms: null,
      error: null,
    };
    await trx
      .insertInto('projection_rebuilds')
      .values({ name: projection.name, ...fresh })
      .onConflict((oc) => oc.column('name').doUpdateSet(fresh))
      .execute();
  });
  return { ...START, applied: 0 };
}

/** Reads and writes of `trx` go to the projection's new copy (other tables are found where they are). */
async function intoShadow(trx: Transaction<Database>, projection: Projection): Promise<void> {
  await sql`SELECT set_config('search_path', ${`${shadowSchemaOf(projection.name)}, public`}, true)`.execute(
    trx,
  );
}

/** Fills the new copy batch by batch until it has read everything in the log now. */
async function buildShadow(
  deps: BlueGreenDeps,
  projection: Projection,
  from: LogPosition & { applied: number },
  options: BlueGreenOptions,
): Promise<{ position: LogPosition; applied: number }> {
  const batchSize = options.batchSize ?? 2_000;
  const types = typesOf(projection);
  let position: LogPosition = { commit: from.commit, prepare: from.prepare };
  let applied = from.applied;
  let appliedHere = 0;
  const started = performance.now();
  const startPrepare = position.prepare < 0n ? 0n : position.prepare;
  let lastReport = 0;
  for (;;) {
    if (options.signal?.aborted) return { position, applied };
    const { events, next } = await deps.eventStore.readAll({ after: position, maxCount: batchSize, types });
    if (comparePositions(next, position) <= 0) break;
    const seconds = (performance.now() - started) / 1000;
    const head = await headOf(deps.eventStore, next, events.length < batchSize);
    const pace = seconds > 0 ? appliedHere / seconds : 0;
    const logPace = seconds > 0 ? Number(next.prepare - startPrepare) / seconds : 0;
    const remaining = Math.max(0, Number(head.prepare - next.prepare));
    const etaSeconds = logPace > 0 ? remaining / logPace : null;
    await deps.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('projection_rebuilds')
        .set({
          commit_position: next.commit.toString(),
          prepare_position: next.prepare.toString(),
          applied: applied + events.length,
          events_per_second: pace,
          eta_seconds: etaSeconds,
          updated_at: new Date(),
        })
        .where('name', '=', projection.name)
        .where('commit_position', '=', position.commit.toString())
        .where('prepare_position', '=', position.prepare.toString())
        .executeTakeFirst();
      if (moved.numUpdatedRows !== 1n) throw new Error(`the rebuild of ${projection.name} was taken over`);
      if (events.length > 0) {
        await intoShadow(trx, projection);
        await projection.apply(withReadModels(trx), events);
      }
    });
    position = next;
    applied += events.length;
    appliedHere += events.length;
    const now = performance.now();
    if (now - lastReport > 200 || events.length < batchSize) {
      lastReport = now;
      options.onProgress?.({
        projection: projection.name,
        applied,
        remaining,
        eventsPerSecond: pace,
        etaSeconds,
      });
    }
    if (events.length < batchSize && remaining === 0) break;
  }
  return { position, applied };
}

/** The log's head, asked only now and then (every batch short of full, or once per 20 batches). */
let headCache: { at: number; head: LogPosition } | undefined;
async function headOf(store: EventStore, next: LogPosition, short: boolean): Promise<LogPosition> {
  const now = performance.now();
  if (short || !headCache || now - headCache.at > 1_000) {
    headCache = { at: now, head: await store.headPosition() };
  }
  return comparePositions(headCache.head, next) > 0 ? headCache.head : next;
}

/**
 * The swap, in one transaction: the live checkpoint locked (the runner's next batch waits), the events
 * since the new copy's position applied to it, the old tables locked and set aside and the new ones moved in
 * (renames in the catalogue), the checkpoint set to the new copy's position and version. The changes the
 * runner had not announced (the events after its checkpoint) are announced once, after the commit.
 */
async function swapIn(
  deps: BlueGreenDeps,
  projection: Projection,
  from: LogPosition,
): Promise<{ tail: number; swapMs: number }> {
  const shadow = shadowSchemaOf(projection.name);
  const retired = retiredSchemaOf(projection.name);
  const types = typesOf(projection);
  await deps.db
    .updateTable('projection_rebuilds')
    .set({ state: 'swapping', updated_at: new Date() })
    .where('name', '=', projection.name)
    .execute();
  let liveBefore: LogPosition = START;
  let position = from;
  let tail = 0;
  let lockedAt = 0;
  await deps.db.transaction().execute(async (trx) => {
    const live = await trx
      .selectFrom('projection_checkpoints')
      .select(['commit_position', 'prepare_position', 'version'])
      .where('name', '=', projection.name)
      .forUpdate()
      .executeTakeFirst();
    // The runner announced what it applied up to its checkpoint, whatever its version.
    if (live) {
      liveBefore = { commit: BigInt(live.commit_position), prepare: BigInt(live.prepare_position) };
    }
    await intoShadow(trx, projection);
    for (;;) {
      const { events, next } = await deps.eventStore.readAll({ after: position, maxCount: 2_000, types });
      if (comparePositions(next, position) <= 0) break;
      if (events.length > 0) await projection.apply(withReadModels(trx), events);
      tail += events.length;
      position = next;
    }
    await sql`SELECT set_config('search_path', 'public', true)`.execute(trx);
    lockedAt = performance.now();
    await sql`LOCK TABLE ${sql.join(projection.tables.map((table) => sql.id('public', table)))} IN ACCESS EXCLUSIVE MODE`.execute(
      trx,
    );
    await sql`CREATE SCHEMA ${sql.id(retired)}`.execute(trx);
    for (const table of projection.tables) {
      await sql`ALTER TABLE ${sql.id('public', table)} SET SCHEMA ${sql.id(retired)}`.execute(trx);
      await sql`ALTER TABLE ${sql.id(shadow, table)} SET SCHEMA public`.execute(trx);
    }
    const checkpoint = {
      version: projection.version,
      commit_position: position.commit.toString(),
      prepare_position: position.prepare.toString(),
      updated_at: new Date(),
    };
    await trx
      .insertInto('projection_checkpoints')
      .values({ name: projection.name, ...checkpoint })
      .onConflict((oc) => oc.column('name').doUpdateSet(checkpoint))
      .execute();
    await trx
      .updateTable('projection_rebuilds')
      .set({
        state: 'done',
        commit_position: position.commit.toString(),
        prepare_position: position.prepare.toString(),
        applied: sql`applied + ${tail}`,
        eta_seconds: 0,
        finished_at: new Date(),
        updated_at: new Date(),
      })
      .where('name', '=', projection.name)
      .execute();
  });
  // Readers wait from the lock to the commit's answer.
  const swapMs = performance.now() - lockedAt;
  await deps.db
    .updateTable('projection_rebuilds')
    .set({ swap_ms: swapMs })
    .where('name', '=', projection.name)
    .execute();
  await sql`DROP SCHEMA IF EXISTS ${sql.id(retired)} CASCADE`.execute(deps.db);
  await sql`DROP SCHEMA IF EXISTS ${sql.id(shadow)} CASCADE`.execute(deps.db);
  await announce(deps, projection, liveBefore, position);
  await deps.progress?.report(projection.name, position);
  return { tail, swapMs };
}

/** Tells the projection's followers (redirect caches) of the changes in (from, to]: the runner did not. */
async function announce(
  deps: BlueGreenDeps,
  projection: Projection,
  from: LogPosition,
  to: LogPosition,
): Promise<void> {
  if (!projection.afterCommit) return;
  let position = from;
  while (comparePositions(position, to) < 0) {
    const { events, next } = await deps.eventStore.readAll({
      after: position,
      maxCount: 2_000,
      types: typesOf(projection),
    });
    if (comparePositions(next, position) <= 0) break;
    const within: RecordedEvent[] = events.filter((event) => comparePositions(event.globalPosition, to) <= 0);
    if (within.length > 0) await projection.afterCommit(within);
    position = next;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
