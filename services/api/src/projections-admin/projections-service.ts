import type { ProjectionHealthEntry } from '@sniplink/contracts';
import { projectionStream } from '@sniplink/contracts';
import { ConflictError, NotFoundError, projectionOperationsDecider } from '@sniplink/domain';
import { commandHandler, currentCommandContext } from '@sniplink/platform';
import {
  type Projection,
  type ProjectionRebuilds,
  projectionHealth,
  RebuildRunningError,
  UnknownProjectionError,
} from '@sniplink/projections';
import type { ServiceDeps } from '../shared/service-deps';

export interface ProjectionsServiceDeps extends Omit<ServiceDeps, 'ids' | 'readModels'> {
  projections: readonly Projection[];
  rebuilds: ProjectionRebuilds;
}

/**
 * The read models' health and their blue/green rebuilds, for the console. A rebuild asked for is recorded
 * on the projection's stream (the audit history lists it) and runs in the background in this process.
 */
export class ProjectionsService {
  private readonly operations;

  constructor(private readonly deps: ProjectionsServiceDeps) {
    this.operations = commandHandler(deps, {
      decider: projectionOperationsDecider,
      stream: projectionStream,
    });
  }

  async health(): Promise<ProjectionHealthEntry[]> {
    const entries = await projectionHealth(
      { db: this.deps.db, eventStore: this.deps.eventStore, now: () => this.deps.clock.now() },
      this.deps.projections,
    );
    return entries.map((entry) => ({
      ...entry,
      lastErrorAt: entry.lastErrorAt?.toISOString() ?? null,
      rebuild: entry.rebuild
        ? {
            ...entry.rebuild,
            state: entry.rebuild.state as 'building' | 'swapping' | 'done' | 'failed',
            startedAt: entry.rebuild.startedAt.toISOString(),
            finishedAt: entry.rebuild.finishedAt?.toISOString() ?? null,
          }
        : null,
    }));
  }

  /** Starts the rebuild of `name`: 404 for a name no projection has, 409 while one of it runs. */
  async rebuild(name: string): Promise<{ name: string; started: true }> {
    const projection = this.deps.projections.find((candidate) => candidate.name === name);
    if (!projection) {
      throw new NotFoundError(
        `No projection is named "${name}"; the projections are ${this.deps.projections.map((p) => p.name).join(', ')}`,
      );
    }
    const requestedBy = currentCommandContext()?.actorId ?? 'system';
    try {
      await this.deps.rebuilds.start(name, String(requestedBy));
    } catch (error) {
      if (error instanceof RebuildRunningError) throw new ConflictError('CONFLICT', error.message);
      if (error instanceof UnknownProjectionError) throw new NotFoundError(error.message);
      throw error;
    }
    await this.operations.handle(name, {
      type: 'RequestRebuild',
      projection: name,
      version: projection.version,
    });
    return { name, started: true };
  }
}
