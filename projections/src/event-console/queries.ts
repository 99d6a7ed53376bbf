import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../read-models';

export interface StreamFilter {
  /** The start of the stream ids listed. */
  prefix?: string;
  /** The type of their last event. */
  lastEventType?: string;
  /** From 1. */
  page: number;
  pageSize: number;
}

export interface StreamRow {
  streamId: string;
  category: string;
  revision: number;
  eventCount: number;
  lastEventType: string;
  lastEventAt: Date;
}

/** `%`, `_` and `\` stand for themselves in a LIKE pattern built from what an admin typed. */
const literalLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** A page of the stream catalogue, the most recently changed first, and whether a next page has any. */
export async function catalogueStreams(
  db: Kysely<Database>,
  { prefix, lastEventType, page, pageSize }: StreamFilter,
): Promise<{ streams: StreamRow[]; hasMore: boolean }> {
  let query = withReadModels(db)
    .selectFrom('rm_streams')
    .selectAll()
    .orderBy('last_event_at', 'desc')
    .orderBy('stream_id')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  if (prefix) query = query.where('stream_id', 'like', `${literalLike(prefix)}%`);
  if (lastEventType) query = query.where('last_event_type', '=', lastEventType);
  const rows = await query.execute();
  return {
    streams: rows.slice(0, pageSize).map((row) => ({
      streamId: row.stream_id,
      category: row.category,
      revision: Number(row.last_revision),
      eventCount: Number(row.event_count),
      lastEventType: row.last_event_type,
      lastEventAt: row.last_event_at,
    })),
    hasMore: rows.length > pageSize,
  };
}

/** Which of these stream ids the catalogue holds (a stream with at least one event). */
export async function knownStreams(db: Kysely<Database>, streamIds: readonly string[]): Promise<string[]> {
  if (streamIds.length === 0) return [];
  const rows = await withReadModels(db)
    .selectFrom('rm_streams')
    .select('stream_id')
    .where('stream_id', 'in', streamIds)
    .execute();
  return rows.map((row) => row.stream_id);
}

/** The account whose normalised e-mail address this is, erased ones aside (by the `rm_users_email` index). */
export async function userIdByEmail(
  db: Kysely<Database>,
  normalisedEmail: string,
): Promise<string | undefined> {
  const row = await withReadModels(db)
    .selectFrom('rm_users')
    .select('user_id')
    .where('email_normalized', '=', normalisedEmail)
    .where('erased', '=', false)
    .executeTakeFirst();
  return row?.user_id;
}

/** The links whose code is this one (any case), deleted ones too: their history is still there. */
export async function linkIdsByCode(
  db: Kysely<Database>,
  code: string,
): Promise<{ linkId: string; code: string }[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_links')
    .select(['link_id', 'code'])
    .where('code_lower', '=', code.toLowerCase())
    .orderBy('created_at', 'desc')
    .limit(10)
    .execute();
  return rows.map((row) => ({ linkId: row.link_id, code: row.code }));
}

/** The premium slug of this name (any case), if the catalogue has it. */
export async function premiumSlugIdBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<{ slugId: string; slug: string } | undefined> {
  const row = await withReadModels(db)
    .selectFrom('rm_premium_slugs')
    .select(['slug_id', 'slug'])
    .where('slug', '=', slug.trim().toLowerCase())
    .executeTakeFirst();
  return row && { slugId: row.slug_id, slug: row.slug };
}

/** The e-mail addresses of these accounts now (erased ones and other actors have none). */
export async function emailsOf(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = userIds.filter((id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  );
  if (ids.length === 0) return new Map();
  const rows = await withReadModels(db)
    .selectFrom('rm_users')
    .select(['user_id', 'email'])
    .where('user_id', 'in', ids)
    .where('erased', '=', false)
    .execute();
  return new Map(rows.flatMap((row) => (row.email ? [[row.user_id, row.email] as const] : [])));
}

/** Where the events of one request or job sit, in log order (at most `limit`). */
export async function correlatedEventPlaces(
  db: Kysely<Database>,
  correlationId: string,
  limit: number,
): Promise<{ streamId: string; revision: bigint }[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_event_correlations')
    .select(['stream_id', 'revision'])
    .where('correlation_id', '=', correlationId)
    .orderBy('log_commit')
    .orderBy('log_prepare')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ streamId: row.stream_id, revision: BigInt(row.revision) }));
}
