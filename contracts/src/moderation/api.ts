import { z } from 'zod';
import { visibleText } from '../text';
import {
  approvalStatuses,
  BRAND_REJECTION_REASON,
  brandCategories,
  MODERATION_ENTRY_MAX,
  wordCategories,
  wordSeverities,
} from './lists';

export * from './lists';

/** `POST /api/admin/prohibited-words`; category defaults to offensive, severity to medium. */
export const addProhibitedWordBody = z.object({
  word: visibleText(MODERATION_ENTRY_MAX),
  category: z.enum(wordCategories).default('offensive'),
  severity: z.enum(wordSeverities).default('medium'),
});
export type AddProhibitedWordBody = z.input<typeof addProhibitedWordBody>;

/** `POST /api/admin/protected-brands`; category defaults to tech, requiresApproval to true. */
export const addProtectedBrandBody = z.object({
  brand: visibleText(MODERATION_ENTRY_MAX),
  category: z.enum(brandCategories).default('tech'),
  requiresApproval: z.boolean().default(true),
});
export type AddProtectedBrandBody = z.input<typeof addProtectedBrandBody>;

/** `PATCH /api/admin/prohibited-words/{id}` and `/protected-brands/{id}`: the active switch. */
export const setEntryActiveBody = z.object({ isActive: z.boolean() });

export const prohibitedWordSchema = z
  .object({
    id: z.string(),
    word: z.string(),
    category: z.enum(wordCategories),
    severity: z.enum(wordSeverities),
    isActive: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'ProhibitedWord' });
export type ProhibitedWord = z.infer<typeof prohibitedWordSchema>;

export const protectedBrandSchema = z
  .object({
    id: z.string(),
    brand: z.string(),
    category: z.enum(brandCategories),
    requiresApproval: z.boolean(),
    isActive: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'ProtectedBrand' });
export type ProtectedBrand = z.infer<typeof protectedBrandSchema>;

export const deletedEntrySchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** A code that waits for an admin because it contains a protected brand. */
export const slugApprovalSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    userId: z.string(),
    matchedBrand: z.string(),
    status: z.enum(approvalStatuses),
    createdAt: z.string(),
    /** When an admin approved or rejected it, and what they wrote. */
    decidedAt: z.string().nullable(),
    notes: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'SlugApproval' });
export type SlugApproval = z.infer<typeof slugApprovalSchema>;

/** `GET /api/admin/slug-approvals?status=`: pending when absent. */
export const slugApprovalsQuery = z.object({ status: z.enum(approvalStatuses).default('pending') });

/** `PATCH /api/admin/slug-approvals/{id}/approve`. */
export const approveSlugBody = z.object({ notes: z.string().max(500).nullish() });
/** `PATCH /api/admin/slug-approvals/{id}/reject`: the reason the user is told. */
export const rejectSlugBody = z.object({
  reason: visibleText(200).default(BRAND_REJECTION_REASON),
});

/**
 * `GET /api/moderation/notices`: the signed-in user's codes an admin rejected lately, each with the code
 * the link was given instead.
 */
export const codeRejectionNoticeSchema = z
  .object({
    id: z.string(),
    linkId: z.string(),
    rejectedCode: z.string(),
    newCode: z.string().nullable(),
    reason: z.string(),
    rejectedAt: z.string(),
  })
  .meta({ id: 'CodeRejectionNotice' });
export type CodeRejectionNotice = z.infer<typeof codeRejectionNoticeSchema>;
