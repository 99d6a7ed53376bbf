import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../read-models';

export interface PageCopyRow {
  page: string;
  title: string;
  content: string;
  published: boolean;
  version: number;
  publishedAt: Date | null;
  updatedAt: Date;
}

export interface PageCopyVersionRow {
  version: number;
  title: string;
  content: string;
  publishedAt: Date;
}

const draftColumns = [
  'page',
  'title',
  'content',
  'published',
  'version',
  'published_at as publishedAt',
  'updated_at as updatedAt',
] as const;
const versionColumns = ['version', 'title', 'content', 'published_at as publishedAt'] as const;

/** Every page ever saved, with its draft (five rows at most: read whole). */
export function pageCopies(db: Kysely<Database>): Promise<PageCopyRow[]> {
  return withReadModels(db).selectFrom('rm_page_copy').select(draftColumns).orderBy('page').execute();
}

/** One page's draft, or undefined when nothing was ever saved for it. */
export function pageCopy(db: Kysely<Database>, page: string): Promise<PageCopyRow | undefined> {
  return withReadModels(db)
    .selectFrom('rm_page_copy')
    .select(draftColumns)
    .where('page', '=', page)
    .executeTakeFirst();
}

/** A page's published versions, newest first. */
export function pageCopyVersions(db: Kysely<Database>, page: string): Promise<PageCopyVersionRow[]> {
  return withReadModels(db)
    .selectFrom('rm_page_copy_versions')
    .select(versionColumns)
    .where('page', '=', page)
    .orderBy('version', 'desc')
    .execute();
}

/** The version a public page shows: the newest published, or undefined before the first. */
export function publishedPageCopy(
  db: Kysely<Database>,
  page: string,
): Promise<PageCopyVersionRow | undefined> {
  return withReadModels(db)
    .selectFrom('rm_page_copy_versions')
    .select(versionColumns)
    .where('page', '=', page)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}
