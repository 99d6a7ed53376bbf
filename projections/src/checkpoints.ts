import { type Database, type LogPosition, START } from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Projection } from './projection';

export class CheckpointMovedError extends Error {
  constructor(projection: string) {
    super(`The checkpoint of projection ${projection} was moved by another runner`);
    this.name = 'CheckpointMovedError';
  }
}

/**
 * The projection's checkpoint; a first run, or a run of a new version, starts from the beginning
 * with its tables emptied.
 */
export async function loadCheckpoint(db: Kysely<Database>, projection: Projection): Promise<LogPosition> {
  const row = await db
    .selectFrom('projection_checkpoints')
    .select(['version', 'commit_position', 'prepare_position'])
    .where('name', '=', projection.name)
    .executeTakeFirst();
  if (row && row.version === projection.version) {
    return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
  }
  await db.transaction().execute((trx) => resetProjection(trx, projection));
  return START;
}

/** Empties the projection's tables and puts its checkpoint back to the start, in the caller's transaction. */
export async function resetProjection(trx: Transaction<Database>, projection: Projection): Promise<void> {
  for (const table of projection.tables) await sql`TRUNCATE ${sql.table(table)}`.execute(trx);
  await trx
    .insertInto('projection_checkpoints')
    .values({
      name: projection.name,
      version: projection.version,
      commit_position: START.commit.toString(),
      prepare_position: START.prepare.toString(),
    })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        version: projection.version,
        commit_position: START.commit.toString(),
        prepare_position: START.prepare.toString(),
        updated_at: new Date(),
      }),
    )
    .execute();
}

/**
 * Compare-and-set, inside the batch's transaction: moves the checkpoint from `from` to `to`, or throws when
 * another runner moved it first (then this batch's read-model changes roll back with it).
 */
export async function advanceCheckpoint(
  trx: Transaction<Database>,
  projection: Projection,
  from: LogPosition,
  to: LogPosition,
): Promise<void> {
  const result = await trx
    .updateTable('projection_checkpoints')
    .set({
      commit_position: to.commit.toString(),
      prepare_position: to.prepare.toString(),
      updated_at: new Date(),
    })
    .where('name', '=', projection.name)
    .where('version', '=', projection.version)
    .where('commit_position', '=', from.commit.toString())
    .where('prepare_position', '=', from.prepare.toString())
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new CheckpointMovedError(projection.name);
}
