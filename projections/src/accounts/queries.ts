import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../read-models';
import type { UserRow } from './tables';

/** The account's row (erased accounts too: `erased` says so), or undefined when there is none. */
export function userById(db: Kysely<Database>, userId: string): Promise<UserRow | undefined> {
  return withReadModels(db)
    .selectFrom('rm_users')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Ids of accounts the read model shows erased whose key still exists (an erasure interrupted before the shred). */
export async function erasedUsersStillKeyed(db: Kysely<Database>, limit: number): Promise<string[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_users')
    .innerJoin('user_keys', 'user_keys.user_id', 'rm_users.user_id')
    .select('rm_users.user_id')
    .where('rm_users.erased', '=', true)
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_id);
}
