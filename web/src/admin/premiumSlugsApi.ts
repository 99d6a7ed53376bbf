import {
  type AdminPremiumSlugsQuery,
  type CreatePremiumSlugBody,
  premiumSlugAdminEndpoints,
  type UpdatePremiumSlugBody,
} from '@sniplink/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { marketplaceSlugsQueryKey } from '../marketplace/api';
import { auditQueryKey } from './auditApi';

const { premiumCatalogue, addPremiumSlug, updatePremiumSlug, deletePremiumSlug, seedPremiumSlugs } =
  premiumSlugAdminEndpoints;

export const adminPremiumSlugsQueryKey = [premiumCatalogue.path] as const;

export type PremiumSlugFilters = Required<Pick<AdminPremiumSlugsQuery, 'search' | 'page'>> &
  Pick<AdminPremiumSlugsQuery, 'category' | 'tier' | 'availability'>;

/** The filters the URL carries: an empty one (no search, any category) is left out. */
const setFilters = (filters: PremiumSlugFilters): PremiumSlugFilters =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '')) as PremiumSlugFilters;

/** One page of 25 with the four cards. Admin queries never retry. */
export const adminPremiumSlugsQueryOptions = (filters: PremiumSlugFilters) =>
  queryOptions({
    queryKey: [...adminPremiumSlugsQueryKey, filters],
    queryFn: ({ signal }) => call(premiumCatalogue, { query: setFilters(filters) }, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** After any change: the tab's list and cards, the marketplace and the audit history are asked again. */
export function useRefreshPremiumSlugs() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [adminPremiumSlugsQueryKey, marketplaceSlugsQueryKey, auditQueryKey].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

function usePremiumSlugChange<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const refresh = useRefreshPremiumSlugs();
  return useMutation({ mutationFn, onSuccess: refresh });
}

/** Adds one slug (no list refresh: bulk add refreshes once at its end). */
export const createPremiumSlug = (body: CreatePremiumSlugBody) => call(addPremiumSlug, { body });

export const useCreatePremiumSlug = () => usePremiumSlugChange(createPremiumSlug);

export const useUpdatePremiumSlug = () =>
  usePremiumSlugChange(({ id, changes }: { id: string; changes: UpdatePremiumSlugBody }) =>
    call(updatePremiumSlug, { params: { id }, body: changes }),
  );

export const useDeletePremiumSlug = () =>
  usePremiumSlugChange((id: string) => call(deletePremiumSlug, { params: { id } }));

export const useSeedPremiumSlugs = () => usePremiumSlugChange(() => call(seedPremiumSlugs));
