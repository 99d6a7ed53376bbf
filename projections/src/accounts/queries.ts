import type { Database } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { type BilledSubscription, liveSubscriptionsOf } from '../billing/queries';
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

/** Whether the account holds the admin flag now (the admin gate: one row by its primary key). */
export async function isAdminUser(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await withReadModels(db)
    .selectFrom('rm_users')
    .select('is_admin')
    .where('user_id', '=', userId)
    .where('erased', '=', false)
    .executeTakeFirst();
  return row?.is_admin === true;
}

/** The columns the console lists: no secret is ever in this table, and the list reads no other. */
const listedColumns = [
  'user_id',
  'email',
  'first_name',
  'last_name',
  'is_admin',
  'suspended',
  'subscription_status',
  'subscription_plan',
  'links_created_this_month',
  'links_month',
  'created_at',
] as const;

export type ListedUserRow = Pick<UserRow, (typeof listedColumns)[number]>;

/** A user as the admin's list shows them: the row, their live links, their subscriptions that have not ended. */
export interface ListedUser {
  row: ListedUserRow;
  liveLinks: number;
  subscriptions: BilledSubscription[];
}

export interface UserSearch {
  /** A part of the e-mail or of the full name ("first last"), any case; blank: everyone. */
  search: string;
  /** From 1. */
  page: number;
  pageSize: number;
}

/** Matches are counted up to this many; past it the count says "more" (`totalCapped`), and the search can narrow. */
const USER_COUNT_CAP = 10_000;

/**
 * The console's users (erased accounts are not listed), newest first, `pageSize` a page, with how many
 * match: counted up to `USER_COUNT_CAP`, so that a broad search (or none) over 100,000 users costs a bounded
 * count, not a pass over every match. The search is a substring of the lower-cased e-mail or full name,
 * served by the trigram index on `search_text` (migration `2026-11-27T01-admin-users`).
 */
export async function searchUsers(
  db: Kysely<Database>,
  { search, page, pageSize }: UserSearch,
): Promise<{ users: ListedUser[]; total: number; totalCapped: boolean }> {
  const [rows, counted] = await Promise.all([
    matching(db, search)
      .select(listedColumns)
      .orderBy('created_at', 'desc')
      .orderBy('user_id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    withReadModels(db)
      .selectFrom(
        matching(db, search)
          .select(sql<number>`1`.as('one'))
          .limit(USER_COUNT_CAP + 1)
          .as('matches'),
      )
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    users: await withFacts(db, rows),
    total: Math.min(counted.total, USER_COUNT_CAP),
    totalCapped: counted.total > USER_COUNT_CAP,
  };
}

/** One user as the console lists them; undefined when there is none (or it was erased). */
export async function listedUser(db: Kysely<Database>, userId: string): Promise<ListedUser | undefined> {
  const rows = await withReadModels(db)
    .selectFrom('rm_users')
    .select(listedColumns)
    .where('user_id', '=', userId)
    .where('erased', '=', false)
    .execute();
  return (await withFacts(db, rows))[0];
}

/**
 * Every user the search matches, in batches (newest first, after a `(created_at, user_id)` cursor): the
 * export streams them without holding them all, nor a transaction, nor an ever-growing offset.
 */
export async function* usersMatching(
  db: Kysely<Database>,
  search: string,
  batchSize = 1_000,
): AsyncGenerator<ListedUser[]> {
  let after: { createdAt: Date; userId: string } | undefined;
  for (;;) {
    let query = matching(db, search)
      .select(listedColumns)
      .orderBy('created_at', 'desc')
      .orderBy('user_id', 'desc')
      .limit(batchSize);
    if (after) {
      const { createdAt, userId } = after;
      query = query.where(sql<boolean>`(created_at, user_id) < (${createdAt}, ${userId}::uuid)`);
    }
    const rows = await query.execute();
    if (rows.length > 0) yield await withFacts(db, rows);
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return;
    after = { createdAt: last.created_at, userId: last.user_id };
  }
}

/** Accounts not erased whose search text contains `search` (LIKE's wildcards in it match themselves). */
function matching(db: Kysely<Database>, search: string) {
  const query = withReadModels(db).selectFrom('rm_users').where('erased', '=', false);
  const text = search.trim();
  if (text === '') return query;
  const pattern = `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  return query.where(sql<boolean>`search_text LIKE lower(${pattern})`);
}

async function withFacts(db: Kysely<Database>, rows: ListedUserRow[]): Promise<ListedUser[]> {
  const userIds = rows.map((row) => row.user_id);
  const [links, subscriptions] = await Promise.all([
    liveLinkCounts(db, userIds),
    liveSubscriptionsOf(db, userIds),
  ]);
  return rows.map((row) => ({
    row,
    liveLinks: links.get(row.user_id) ?? 0,
    subscriptions: subscriptions.get(row.user_id) ?? [],
  }));
}

async function liveLinkCounts(
  db: Kysely<Database>,
  ownerIds: readonly string[],
): Promise<Map<string, number>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await withReadModels(db)
    .selectFrom('rm_links')
    .select(['owner_id', sql<number>`count(*)::int`.as('count')])
    .where('owner_id', 'in', ownerIds)
    .where('deleted', '=', false)
    .groupBy('owner_id')
    .execute();
  return new Map(rows.map((row) => [row.owner_id, row.count]));
}
