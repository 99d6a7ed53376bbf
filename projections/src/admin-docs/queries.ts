import type { AdminDocSection } from '@sniplink/contracts/admin-docs/api';
import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../read-models';

export interface AdminDocRow {
  id: string;
  section: AdminDocSection;
  title: string;
  content: string;
  sortOrder: number;
  lastUpdatedById: string;
  /** That admin's e-mail address now; null once the account is erased, or for `system`. */
  lastUpdatedByEmail: string | null;
  updatedAt: Date;
}

/** The docs, or one section's: by sortOrder, then title (a few dozen rows: the table is read whole). */
export async function adminDocs(db: Kysely<Database>, section?: AdminDocSection): Promise<AdminDocRow[]> {
  const rows = await selectDocs(db)
    .$if(section !== undefined, (query) => query.where('section', '=', section ?? ''))
    .orderBy('sort_order')
    .orderBy('title')
    .orderBy('doc_id')
    .execute();
  return withWriters(db, rows);
}

/** One doc, or undefined when there is none (or it was deleted). */
export async function adminDoc(db: Kysely<Database>, docId: string): Promise<AdminDocRow | undefined> {
  const rows = await selectDocs(db).where('doc_id', '=', docId).execute();
  return (await withWriters(db, rows))[0];
}

function selectDocs(db: Kysely<Database>) {
  return withReadModels(db)
    .selectFrom('rm_admin_docs')
    .select([
      'doc_id as id',
      (eb) => eb.ref('section').$castTo<AdminDocSection>().as('section'),
      'title',
      'content',
      'sort_order as sortOrder',
      'last_updated_by as lastUpdatedById',
      'updated_at as updatedAt',
    ])
    .where('deleted', '=', false);
}

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Each doc with its last writer's address as the users read model holds it now (so an erased admin is
 * no longer named). `system` is no account.
 */
async function withWriters(
  db: Kysely<Database>,
  rows: Omit<AdminDocRow, 'lastUpdatedByEmail'>[],
): Promise<AdminDocRow[]> {
  const userIds = [...new Set(rows.map((row) => row.lastUpdatedById))].filter((id) => USER_ID.test(id));
  const writers =
    userIds.length === 0
      ? []
      : await withReadModels(db)
          .selectFrom('rm_users')
          .select(['user_id', 'email'])
          .where('user_id', 'in', userIds)
          .where('erased', '=', false)
          .execute();
  const emails = new Map(writers.map((writer) => [writer.user_id, writer.email]));
  return rows.map((row) => ({ ...row, lastUpdatedByEmail: emails.get(row.lastUpdatedById) ?? null }));
}
