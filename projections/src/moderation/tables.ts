import type { BrandCategory, WordCategory, WordSeverity } from '@sniplink/contracts/moderation/api';
import type { Int8 } from '@sniplink/platform';
import type { Selectable } from 'kysely';

/**
 * The moderation read model's tables (migration `…28T14-moderation`), written by `moderationProjection`,
 * read through `./queries`.
 */
export type ModerationTables = {
  rm_prohibited_words: RmProhibitedWordsTable;
  rm_protected_brands: RmProtectedBrandsTable;
  rm_slug_approvals: RmSlugApprovalsTable;
};

export interface RmProhibitedWordsTable {
  word_id: string;
  word: string;
  category: WordCategory;
  severity: WordSeverity;
  is_active: boolean;
  created_at: Date;
  /** The word's stream revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}

export interface RmProtectedBrandsTable {
  brand_id: string;
  brand: string;
  category: BrandCategory;
  requires_approval: boolean;
  is_active: boolean;
  created_at: Date;
  last_revision: Int8;
}

/**
 * A code that waited for approval. `withdrawn`: the owner moved the link off the code, or deleted it,
 * before an admin decided (kept so that a replayed event does not bring it back, and never listed).
 */
export interface RmSlugApprovalsTable {
  approval_id: string;
  link_id: string;
  /** The link stream's revision of the event that opened it: only a later event withdraws it. */
  link_revision: Int8;
  user_id: string;
  slug: string;
  matched_brand: string;
  status: 'pending' | 'approved' | 'rejected' | 'withdrawn';
  notes: string | null;
  reason: string | null;
  /** The generated code a rejected link was given. */
  new_code: string | null;
  created_at: Date;
  decided_at: Date | null;
}

export type SlugApprovalRow = Selectable<RmSlugApprovalsTable>;
