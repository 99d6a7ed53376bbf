import {
  type AdminPremiumSlugsQuery,
  type CreatePremiumSlugBody,
  premiumSlugAdminEndpoints,
  type UpdatePremiumSlugBody,
} from '@sniplink/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { marketplaceSlugsQueryKey } from '../marketplace/api';
import { auditQueryKey } from './auditApi';
import type { AdminSearch } from './places';

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
    retry: false,
  });

/** The Premium tab's search, filters and page at the console's place. */
export const premiumSlugFiltersAt = ({
  q,
  page,
  category,
  tier,
  availability,
}: AdminSearch): PremiumSlugFilters => ({ search: q ?? '', page: page ?? 1, category, tier, availability });

/** The Premium tab at its place: that page of the catalogue, with the four cards. */
export const loadPremiumTab = (queryClient: QueryClient, place: AdminSearch) =>
  queryClient.ensureQueryData(adminPremiumSlugsQueryOptions(premiumSlugFiltersAt(place)));

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
