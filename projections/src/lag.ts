import type { Database, EventStore } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { type Projection, typesOf } from './projection';

export interface ProjectionLag {
  name: string;
  /** Events of the projection's types not yet applied, counted up to `cap` (then "at least cap"). */
  behind: number;
  capped: boolean;
  /** When the checkpoint last moved; null before the first run. */
  updatedAt: Date | null;
  /** When the oldest event not yet applied occurred; null when none waits. */
  oldestPendingAt: Date | null;
}

/** How far a projection's read model trails the log, from its stored checkpoint (any process can ask). */
export async function projectionLag(
  deps: { db: Kysely<Database>; eventStore: EventStore },
  projection: Projection,
  cap = 1_000,
): Promise<ProjectionLag> {
  const row = await deps.db
    .selectFrom('projection_checkpoints')
    .select(['commit_position', 'prepare_position', 'updated_at', 'version'])
    .where('name', '=', projection.name)
    .executeTakeFirst();
  const current = row && row.version === projection.version;
  const after = current
    ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) }
    : undefined;
  const { events } = await deps.eventStore.readAll({ after, maxCount: cap, types: typesOf(projection) });
  return {
    name: projection.name,
    behind: events.length,
    capped: events.length >= cap,
    updatedAt: current ? row.updated_at : null,
    oldestPendingAt: events[0]?.occurredAt ?? null,
  };
}
