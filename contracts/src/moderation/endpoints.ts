import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  addProhibitedWordBody,
  addProtectedBrandBody,
  approveSlugBody,
  codeRejectionNoticeSchema,
  deletedEntrySchema,
  prohibitedWordSchema,
  protectedBrandSchema,
  rejectSlugBody,
  setEntryActiveBody,
  slugApprovalSchema,
  slugApprovalsQuery,
} from './api';

/** The console's Moderate tab, behind the admin gate. */
export const moderationAdminEndpoints = {
  prohibitedWords: endpoint('GET /api/admin/prohibited-words', { 200: z.array(prohibitedWordSchema) }),
  addProhibitedWord: endpoint(
    'POST /api/admin/prohibited-words',
    { 201: prohibitedWordSchema },
    { body: addProhibitedWordBody },
  ),
  switchProhibitedWord: endpoint(
    'PATCH /api/admin/prohibited-words/:id',
    { 200: prohibitedWordSchema },
    { body: setEntryActiveBody },
  ),
  deleteProhibitedWord: endpoint('DELETE /api/admin/prohibited-words/:id', { 200: deletedEntrySchema }),
  protectedBrands: endpoint('GET /api/admin/protected-brands', { 200: z.array(protectedBrandSchema) }),
  addProtectedBrand: endpoint(
    'POST /api/admin/protected-brands',
    { 201: protectedBrandSchema },
    { body: addProtectedBrandBody },
  ),
  switchProtectedBrand: endpoint(
    'PATCH /api/admin/protected-brands/:id',
    { 200: protectedBrandSchema },
    { body: setEntryActiveBody },
  ),
  deleteProtectedBrand: endpoint('DELETE /api/admin/protected-brands/:id', { 200: deletedEntrySchema }),
  slugApprovals: endpoint(
    'GET /api/admin/slug-approvals',
    { 200: z.array(slugApprovalSchema) },
    { querystring: slugApprovalsQuery },
  ),
  approveSlug: endpoint(
    'PATCH /api/admin/slug-approvals/:id/approve',
    { 200: slugApprovalSchema },
    { body: approveSlugBody },
  ),
  rejectSlug: endpoint(
    'PATCH /api/admin/slug-approvals/:id/reject',
    { 200: slugApprovalSchema },
    { body: rejectSlugBody },
  ),
};

/** The signed-in user's side: what moderation did to their codes. */
export const moderationEndpoints = {
  codeRejectionNotices: endpoint('GET /api/moderation/notices', { 200: z.array(codeRejectionNoticeSchema) }),
};
