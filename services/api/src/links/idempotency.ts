import { ConflictError, DomainError } from '@sniplink/domain';
import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';

export interface StoredResponse {
  status: number;
  body: unknown;
}

const WAIT_FOR_FIRST_MS = 10_000;

/**
 * Runs `work` once per (owner, Idempotency-Key): a double submit gets the first answer, not a second link.
 * The key's row is taken before the work starts, so a concurrent duplicate waits for the first's answer.
 * Answers of rule errors (4xx) are kept too; an unexpected failure frees the key for a retry.
 */
export async function idempotent(
  db: Kysely<Database>,
  ownerId: string,
  key: string | undefined,
  work: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  if (key === undefined) return work();
  const taken = await db
    .insertInto('idempotency_keys')
    .values({ owner_id: ownerId, key, status: null, body: null })
    .onConflict((oc) => oc.columns(['owner_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!taken) return waitForFirstAnswer(db, ownerId, key);
  try {
    return await remember(db, ownerId, key, await work());
  } catch (error) {
    if (error instanceof DomainError) {
      const body = {
        code: error.code,
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
      };
      await remember(db, ownerId, key, { status: error.status, body });
      throw error;
    }
    await db.deleteFrom('idempotency_keys').where('owner_id', '=', ownerId).where('key', '=', key).execute();
    throw error;
  }
}

async function remember(db: Kysely<Database>, ownerId: string, key: string, response: StoredResponse) {
  await db
    .updateTable('idempotency_keys')
    .set({ status: response.status, body: JSON.stringify(response.body) })
    .where('owner_id', '=', ownerId)
    .where('key', '=', key)
    .execute();
  return response;
}

async function waitForFirstAnswer(
  db: Kysely<Database>,
  ownerId: string,
  key: string,
): Promise<StoredResponse> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  while (Date.now() < deadline) {
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['status', 'body'])
      .where('owner_id', '=', ownerId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (row?.status != null) return { status: row.status, body: row.body };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new ConflictError('CONFLICT', 'A request with this Idempotency-Key is still being processed');
}

/** Keys are kept a day: long enough for any client's retry, short enough to stay small. */
export async function pruneIdempotencyKeys(
  db: Kysely<Database>,
  olderThanMs = 24 * 3_600_000,
): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(Date.now() - olderThanMs))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
