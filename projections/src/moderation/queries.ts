import type {
  ApprovalStatus,
  CodeRejectionNotice,
  ProhibitedWord,
  ProtectedBrand,
  SlugApproval,
} from '@sniplink/contracts/moderation/api';
import type { Database } from '@sniplink/platform';
import { type Kysely, type Selectable, sql } from 'kysely';
import { withReadModels } from '../read-models';
import type { RmProhibitedWordsTable, RmProtectedBrandsTable, SlugApprovalRow } from './tables';

/** Every prohibited word, newest first. */
export async function prohibitedWords(db: Kysely<Database>): Promise<ProhibitedWord[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_prohibited_words')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('word_id')
    .execute();
  return rows.map(toWord);
}

const toWord = (row: Selectable<RmProhibitedWordsTable>): ProhibitedWord => ({
  id: row.word_id,
  word: row.word,
  category: row.category,
  severity: row.severity,
  isActive: row.is_active,
  createdAt: row.created_at.toISOString(),
});

export async function prohibitedWordById(
  db: Kysely<Database>,
  id: string,
): Promise<ProhibitedWord | undefined> {
  const row = await withReadModels(db)
    .selectFrom('rm_prohibited_words')
    .selectAll()
    .where('word_id', '=', id)
    .executeTakeFirst();
  return row && toWord(row);
}

/** Every protected brand, newest first. */
export async function protectedBrands(db: Kysely<Database>): Promise<ProtectedBrand[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_protected_brands')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('brand_id')
    .execute();
  return rows.map(toBrand);
}

export async function protectedBrandById(
  db: Kysely<Database>,
  id: string,
): Promise<ProtectedBrand | undefined> {
  const row = await withReadModels(db)
    .selectFrom('rm_protected_brands')
    .selectAll()
    .where('brand_id', '=', id)
    .executeTakeFirst();
  return row && toBrand(row);
}

const toBrand = (row: Selectable<RmProtectedBrandsTable>): ProtectedBrand => ({
  id: row.brand_id,
  brand: row.brand,
  category: row.category,
  requiresApproval: row.requires_approval,
  isActive: row.is_active,
  createdAt: row.created_at.toISOString(),
});

/** An entry codes are checked against (the domain's code matcher takes these). */
export interface ActiveEntry {
  kind: 'word' | 'brand';
  text: string;
  requiresApproval?: boolean;
}

/** The entries codes are checked against: active words and brands only. */
export async function activeModerationEntries(db: Kysely<Database>): Promise<ActiveEntry[]> {
  const typed = withReadModels(db);
  const [words, brands] = await Promise.all([
    typed.selectFrom('rm_prohibited_words').select('word').where('is_active', '=', true).execute(),
    typed
      .selectFrom('rm_protected_brands')
      .select(['brand', 'requires_approval'])
      .where('is_active', '=', true)
      .execute(),
  ]);
  return [
    ...words.map(({ word }): ActiveEntry => ({ kind: 'word', text: word })),
    ...brands.map(
      (row): ActiveEntry => ({ kind: 'brand', text: row.brand, requiresApproval: row.requires_approval }),
    ),
  ];
}

/**
 * A value that changes with every change of the lists (an entry's revision rises with each of its
 * events; a deletion lowers the count): the checker compiles the lists again only when it moves.
 */
export async function moderationListsVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ version: string }>`
    SELECT concat_ws(':',
      (SELECT count(*) || '.' || coalesce(sum(last_revision), 0) FROM rm_prohibited_words),
      (SELECT count(*) || '.' || coalesce(sum(last_revision), 0) FROM rm_protected_brands)) AS version
  `.execute(db);
  return rows[0]?.version ?? '';
}

const toApproval = (row: SlugApprovalRow): SlugApproval => ({
  id: row.approval_id,
  slug: row.slug,
  userId: row.user_id,
  matchedBrand: row.matched_brand,
  // Withdrawn approvals are never read (see `slugApprovals`).
  status: row.status === 'withdrawn' ? 'pending' : row.status,
  createdAt: row.created_at.toISOString(),
  decidedAt: row.decided_at?.toISOString() ?? null,
  notes: row.notes,
  reason: row.reason,
});

/** The approvals in one state: pending ones oldest first (a queue), decided ones latest decision first. */
export async function slugApprovals(db: Kysely<Database>, status: ApprovalStatus): Promise<SlugApproval[]> {
  let query = withReadModels(db).selectFrom('rm_slug_approvals').selectAll().where('status', '=', status);
  query =
    status === 'pending'
      ? query.orderBy('created_at', 'asc')
      : query.orderBy('decided_at', 'desc').orderBy('created_at', 'desc');
  const rows = await query.orderBy('approval_id').limit(1_000).execute();
  return rows.map(toApproval);
}

/** One approval with the link it is about, or undefined (unknown, or withdrawn by its owner). */
export async function slugApprovalById(
  db: Kysely<Database>,
  approvalId: string,
): Promise<(SlugApproval & { linkId: string }) | undefined> {
  const row = await withReadModels(db)
    .selectFrom('rm_slug_approvals')
    .selectAll()
    .where('approval_id', '=', approvalId)
    .where('status', '<>', 'withdrawn')
    .executeTakeFirst();
  return row ? { ...toApproval(row), linkId: row.link_id } : undefined;
}

/** The user's codes rejected since `since`, latest first: the dashboard's notices. */
export async function codeRejectionsOf(
  db: Kysely<Database>,
  userId: string,
  since: Date,
): Promise<CodeRejectionNotice[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_slug_approvals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'rejected')
    .where('decided_at', '>=', since)
    .orderBy('decided_at', 'desc')
    .limit(20)
    .execute();
  return rows.map((row) => ({
    id: row.approval_id,
    linkId: row.link_id,
    rejectedCode: row.slug,
    newCode: row.new_code,
    reason: row.reason ?? '',
    rejectedAt: (row.decided_at ?? row.created_at).toISOString(),
  }));
}
