import type {
  AddProhibitedWordBody,
  AddProtectedBrandBody,
  ApprovalStatus,
} from '@sniplink/contracts/moderation/api';
import { moderationAdminEndpoints, moderationEndpoints } from '@sniplink/contracts/moderation/endpoints';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';

const {
  prohibitedWords,
  addProhibitedWord,
  switchProhibitedWord,
  deleteProhibitedWord,
  protectedBrands,
  addProtectedBrand,
  switchProtectedBrand,
  deleteProtectedBrand,
  slugApprovals,
  approveSlug,
  rejectSlug,
} = moderationAdminEndpoints;

/** Every prohibited word (the GET URL is the key). Admin queries never retry. */
export const prohibitedWordsQueryOptions = () =>
  queryOptions({
    queryKey: [prohibitedWords.path] as const,
    queryFn: ({ signal }) => call(prohibitedWords, {}, { signal }),
    retry: false,
  });

export const protectedBrandsQueryOptions = () =>
  queryOptions({
    queryKey: [protectedBrands.path] as const,
    queryFn: ({ signal }) => call(protectedBrands, {}, { signal }),
    retry: false,
  });

export const slugApprovalsQueryOptions = (status: ApprovalStatus) =>
  queryOptions({
    queryKey: [slugApprovals.path, status] as const,
    queryFn: ({ signal }) => call(slugApprovals, { query: { status } }, { signal }),
    retry: false,
  });

/** The signed-in user's codes an admin did not approve lately (the dashboard's notice). */
export const codeRejectionNoticesQueryOptions = () =>
  queryOptions({
    queryKey: [moderationEndpoints.codeRejectionNotices.path] as const,
    queryFn: ({ signal }) => call(moderationEndpoints.codeRejectionNotices, {}, { signal }),
  });

/** A change to one list: that list is asked again once the server answered. */
function useListChange<Variables>(
  queryKey: readonly unknown[],
  mutationFn: (variables: Variables) => Promise<unknown>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}

const wordsKey = () => prohibitedWordsQueryOptions().queryKey;
const brandsKey = () => protectedBrandsQueryOptions().queryKey;

export const useAddWord = () =>
  useListChange(wordsKey(), (body: AddProhibitedWordBody) => call(addProhibitedWord, { body }));
export const useSwitchWord = () =>
  useListChange(wordsKey(), ({ id, isActive }: { id: string; isActive: boolean }) =>
    call(switchProhibitedWord, { params: { id }, body: { isActive } }),
  );
export const useDeleteWord = () =>
  useListChange(wordsKey(), (id: string) => call(deleteProhibitedWord, { params: { id } }));

export const useAddBrand = () =>
  useListChange(brandsKey(), (body: AddProtectedBrandBody) => call(addProtectedBrand, { body }));
export const useSwitchBrand = () =>
  useListChange(brandsKey(), ({ id, isActive }: { id: string; isActive: boolean }) =>
    call(switchProtectedBrand, { params: { id }, body: { isActive } }),
  );
export const useDeleteBrand = () =>
  useListChange(brandsKey(), (id: string) => call(deleteProtectedBrand, { params: { id } }));

/** Approving or rejecting moves an approval to another status: every status's list is asked again. */
export const useApproveSlug = () =>
  useListChange([slugApprovals.path], (id: string) => call(approveSlug, { params: { id }, body: {} }));
export const useRejectSlug = () =>
  useListChange([slugApprovals.path], ({ id, reason }: { id: string; reason: string }) =>
    call(rejectSlug, { params: { id }, body: { reason } }),
  );
