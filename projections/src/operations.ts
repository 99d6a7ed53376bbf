import {
  type Database,
  type EventStore,
  encodePosition,
  type Logger,
  type LogPosition,
  START,
} from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import {
  acquireRebuildLock,
  type BlueGreenDeps,
  type RebuildProgress,
  RebuildRunningError,
  rebuildBlueGreen,
  rebuildLockOf,
} from './blue-green';
import { projectionLag } from './lag';
import type { Projection } from './projection';

export class UnknownProjectionError extends Error {
  constructor(
    readonly projection: string,
    known: readonly string[],
  ) {
    super(`No projection is named "${projection}"; the projections are ${known.join(', ')}`);
    this.name = 'UnknownProjectionError';
  }
}

/**
 * The rebuilds this process runs in the background: the console's, and those a crash left unfinished
 * (resumed where the projections run). Another process's rebuild of the same projection refuses a second.
 */
export class ProjectionRebuilds {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<unknown> }>();

  constructor(
    private readonly deps: BlueGreenDeps & { log: Logger },
    private readonly projections: readonly Projection[],
  ) {}

  /** Starts rebuilding `name` in the background; throws when it is unknown or already being rebuilt. */
  async start(name: string, requestedBy: string): Promise<void> {
    const projection = this.projections.find((candidate) => candidate.name === name);
    if (!projection) {
      throw new UnknownProjectionError(
        name,
        this.projections.map((p) => p.name),
      );
    }
    if (this.running.has(name)) throw new RebuildRunningError(name);
    const lock = await acquireRebuildLock(this.deps.locks, name);
    const abort = new AbortController();
    const done = rebuildBlueGreen(this.deps, projection, { requestedBy, lock, signal: abort.signal })
      .catch((err: unknown) => {
        if (!abort.signal.aborted)
          this.deps.log.error({ err, projection: name }, 'projection rebuild failed');
      })
      .finally(() => this.running.delete(name));
    this.running.set(name, { abort, done });
  }

  /** Resumes every rebuild a stopped or crashed process left unfinished (another process may take one first). */
  async resumeUnfinished(): Promise<void> {
    const rows = await this.deps.db
      .selectFrom('projection_rebuilds')
      .select(['name', 'requested_by', 'version'])
      .where('state', 'in', ['building', 'swapping'])
      .execute();
    for (const row of rows) {
      const projection = this.projections.find((candidate) => candidate.name === row.name);
      // A rebuild of another version is the runner's to redo (it rebuilds a changed version itself).
      if (!projection || projection.version !== row.version) continue;
      await this.start(row.name, row.requested_by ?? 'system').catch((error: unknown) => {
        if (!(error instanceof RebuildRunningError)) throw error;
      });
    }
  }

  /** Resolves once the rebuild of `name` that this process runs is over (at once if none runs). */
  async finished(name: string): Promise<void> {
    await this.running.get(name)?.done;
  }

  /** Stops this process's rebuilds between two batches: the next start resumes them. */
  async stop(): Promise<void> {
    for (const { abort } of this.running.values()) abort.abort(new Error('the process stops'));
    await Promise.all([...this.running.values()].map(({ done }) => done));
  }
}

export type ProjectionState = 'running' | 'catching up' | 'rebuilding' | 'failed';

export interface ProjectionHealth {
  name: string;
  version: number;
  /** The version the read model's tables were built by (another while a new version rebuilds). */
  storedVersion: number | null;
  position: string | null;
  head: string;
  lagEvents: number;
  /** True when the lag was counted up to its cap only: at least `lagEvents`. */
  lagCapped: boolean;
  /** How old the oldest event not yet applied is; 0 when none waits. */
  lagSeconds: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  state: ProjectionState;
  /** The process that runs it (host and process id), or null when none does. */
  holder: string | null;
  rebuild: {
    state: string;
    applied: number;
    eventsPerSecond: number | null;
    etaSeconds: number | null;
    startedAt: Date;
    finishedAt: Date | null;
    swapMs: number | null;
    error: string | null;
    requestedBy: string | null;
    holder: string | null;
  } | null;
}

/** Events pending older than this make a projection "catching up" rather than running. */
const CATCHING_UP_AFTER_SECONDS = 2;

/** Each projection's health as the console shows it: position, lag, state, who runs it, its rebuild. */
export async function projectionHealth(
  deps: { db: Kysely<Database>; eventStore: EventStore; now?: () => Date },
  projections: readonly Projection[],
): Promise<ProjectionHealth[]> {
  const now = deps.now?.() ?? new Date();
  const [checkpoints, runs, rebuilds, head, held] = await Promise.all([
    deps.db.selectFrom('projection_checkpoints').selectAll().execute(),
    deps.db.selectFrom('projection_runs').selectAll().execute(),
    deps.db.selectFrom('projection_rebuilds').selectAll().execute(),
    deps.eventStore.headPosition(),
    heldLocks(deps.db),
  ]);
  return Promise.all(
    projections.map(async (projection): Promise<ProjectionHealth> => {
      const checkpoint = checkpoints.find((row) => row.name === projection.name);
      const run = runs.find((row) => row.name === projection.name);
      const rebuildRow = rebuilds.find((row) => row.name === projection.name);
      const lag = await projectionLag(deps, projection, 10_000);
      const lagSeconds = lag.oldestPendingAt
        ? Math.max(0, (now.getTime() - lag.oldestPendingAt.getTime()) / 1000)
        : 0;
      const runnerHeld = held.has(`projection:${projection.name}`);
      const rebuildHeld = held.has(rebuildLockOf(projection.name));
      const rebuilding =
        (rebuildHeld && rebuildRow !== undefined && ['building', 'swapping'].includes(rebuildRow.state)) ||
        (checkpoint !== undefined && checkpoint.version !== projection.version);
      const state: ProjectionState = rebuilding
        ? 'rebuilding'
        : run?.failing
          ? 'failed'
          : lag.behind > 0 && lagSeconds > CATCHING_UP_AFTER_SECONDS
            ? 'catching up'
            : 'running';
      const position: LogPosition | null = checkpoint
        ? { commit: BigInt(checkpoint.commit_position), prepare: BigInt(checkpoint.prepare_position) }
        : null;
      return {
        name: projection.name,
        version: projection.version,
        storedVersion: checkpoint?.version ?? null,
        position: position ? encodePosition(position) : null,
        head: encodePosition(head ?? START),
        lagEvents: lag.behind,
        lagCapped: lag.capped,
        lagSeconds,
        lastError: run?.last_error ?? null,
        lastErrorAt: run?.last_error_at ?? null,
        state,
        holder: runnerHeld ? (run?.holder ?? 'another process') : null,
        rebuild: rebuildRow
          ? {
              state: rebuildRow.state,
              applied: Number(rebuildRow.applied),
              eventsPerSecond: rebuildRow.events_per_second,
              etaSeconds: rebuildRow.eta_seconds,
              startedAt: rebuildRow.started_at,
              finishedAt: rebuildRow.finished_at,
              swapMs: rebuildRow.swap_ms,
              error: rebuildRow.error,
              requestedBy: rebuildRow.requested_by,
              holder: rebuildHeld ? (rebuildRow.holder ?? 'another process') : null,
            }
          : null,
      };
    }),
  );
}

/**
 * The names of the projection locks some process holds now: PostgreSQL's advisory locks, keyed as
 * PgAdvisoryLocks takes them (`hashtext(name)`), matched against every projection lock name we know.
 */
async function heldLocks(db: Kysely<Database>): Promise<Set<string>> {
  const { rows } = await sql<{ key: string }>`
    SELECT ((classid::bigint << 32) | objid::bigint)::text AS key
    FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
      -- Advisory locks are per database: another database on the server (a staging copy) holds its own.
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(db);
  const keys = new Set(rows.map((row) => row.key));
  if (keys.size === 0) return new Set();
  const { rows: names } = await sql<{ name: string; key: string }>`
    SELECT name, hashtext(name)::bigint::text AS key
    FROM (SELECT 'projection:' || name AS name FROM projection_checkpoints
          UNION SELECT 'projection:' || name FROM projection_runs
          UNION SELECT 'projection-rebuild:' || name FROM projection_rebuilds) AS lock_names`.execute(db);
  return new Set(names.filter((row) => keys.has(row.key)).map((row) => row.name));
}

export type { RebuildProgress };
