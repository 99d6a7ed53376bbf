import type { Database } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { withReadModels } from '../read-models';
import type { LinkRow } from './tables';

/**
 * What the redirect needs of a link to answer for one of its codes; `owner_suspended` stops it, its
 * controls (`password_hash`: the hash of the password in force) change what visitors meet.
 */
export type RedirectRow = Pick<
  LinkRow,
  | 'link_id'
  | 'original_url'
  | 'owner_id'
  | 'origin'
  | 'created_at'
  | 'expires_at'
  | 'max_clicks'
  | 'fallback_url'
  | 'paused'
  | 'rules'
  | 'pending_approval'
> & {
  owner_suspended: boolean;
  password_hash: string | null;
};

/**
 * The live link holding a code (lower-cased): the redirect's read on a cache miss (one indexed row, and
 * its owner's suspension by primary key). A suspended owner's link is still returned: its code stays taken.
 */
export function liveLinkByCode(db: Kysely<Database>, codeLower: string): Promise<RedirectRow | undefined> {
  return withReadModels(db)
    .selectFrom('rm_links')
    .leftJoin('rm_link_owners', 'rm_link_owners.owner_id', 'rm_links.owner_id')
    .leftJoin('link_passwords', 'link_passwords.password_id', 'rm_links.password_id')
    .select(['rm_links.link_id', 'original_url', 'rm_links.owner_id', 'origin', 'rm_links.created_at'])
    .select(['expires_at', 'max_clicks', 'fallback_url', 'paused', 'rules'])
    .select('link_passwords.hash as password_hash')
    .select('pending_approval')
    .select(sql<boolean>`coalesce(rm_link_owners.suspended, false)`.as('owner_suspended'))
    .where('code_lower', '=', codeLower)
    .where('deleted', '=', false)
    .executeTakeFirst();
}

/** Whether the owner (a user id, or any other owner id) is suspended now: one row by its primary key. */
export async function isSuspendedOwner(db: Kysely<Database>, ownerId: string): Promise<boolean> {
  const row = await withReadModels(db)
    .selectFrom('rm_link_owners')
    .select('suspended')
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return row?.suspended === true;
}

/** The link, if it is live and the owner's. */
export function ownedLiveLink(
  db: Kysely<Database>,
  ownerId: string,
  linkId: string,
): Promise<LinkRow | undefined> {
  return withReadModels(db)
    .selectFrom('rm_links')
    .selectAll()
    .where('link_id', '=', linkId)
    .where('owner_id', '=', ownerId)
    .where('deleted', '=', false)
    .executeTakeFirst();
}

export interface LinksPage {
  /** Matches title, target or code, ignoring case; blank matches every link. */
  search?: string;
  /** Only links carrying this tag (as stored: lower-case). */
  tag?: string;
  limit: number;
  offset: number;
}

/** A page of the owner's live links, newest first. */
export function liveLinksOf(
  db: Kysely<Database>,
  ownerId: string,
  { search, tag, limit, offset }: LinksPage,
): Promise<LinkRow[]> {
  let query = liveRowsOf(db, ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('link_id', 'desc')
    .limit(limit)
    .offset(offset);
  if (tag !== undefined) query = query.where(sql<boolean>`tags @> ARRAY[${tag}]::text[]`);
  const words = search?.trim();
  if (words) {
    const pattern = `%${words.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('title', 'ilike', pattern),
        eb('original_url', 'ilike', pattern),
        eb('code', 'ilike', pattern),
      ]),
    );
  }
  return query.execute();
}

/** Each tag on the owner's live links with how many carry it, the most used first, then by name. */
export async function tagCountsOf(
  db: Kysely<Database>,
  ownerId: string,
): Promise<{ tag: string; count: number }[]> {
  const { rows } = await sql<{ tag: string; count: number }>`
    SELECT tag, count(*)::int AS count
    FROM ${sql.table('rm_links')}, unnest(tags) AS tag
    WHERE owner_id = ${ownerId} AND NOT deleted
    GROUP BY tag
    ORDER BY count DESC, tag`.execute(withReadModels(db));
  return rows;
}

/** How many live links the owner holds. */
export async function liveLinkCount(db: Kysely<Database>, ownerId: string): Promise<number> {
  const row = await withReadModels(db)
    .selectFrom('rm_links')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('owner_id', '=', ownerId)
    .where('deleted', '=', false)
    .executeTakeFirstOrThrow();
  return row.count;
}

export interface DemoLinksQuery {
  /** By creation time (then id), oldest first or newest first. */
  order: 'asc' | 'desc';
  limit: number;
  /** Leaves out links created at or before this instant. */
  createdAfter?: Date;
}

/** The owner's live links made through the demo (a visitor's, or an account's made or claimed there). */
export function liveDemoLinksOf(
  db: Kysely<Database>,
  ownerId: string,
  { order, limit, createdAfter }: DemoLinksQuery,
): Promise<LinkRow[]> {
  let query = liveRowsOf(db, ownerId).where('origin', '=', 'demo');
  if (createdAfter) query = query.where('created_at', '>', createdAfter);
  return query.orderBy('created_at', order).orderBy('link_id', order).limit(limit).execute();
}

/** Every column of the owner's live links: what the link lists start from. */
function liveRowsOf(db: Kysely<Database>, ownerId: string) {
  return withReadModels(db)
    .selectFrom('rm_links')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('deleted', '=', false);
}
