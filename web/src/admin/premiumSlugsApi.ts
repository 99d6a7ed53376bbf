import {
  type AdminPremiumSlugsQuery,
  adminPremiumSlugsPageSchema,
  type CreatePremiumSlugBody,
  deletedPremiumSlugSchema,
  premiumSeedResultSchema,
  premiumSlugSchema,
  type UpdatePremiumSlugBody,
} from '@sniplink/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../api/http';
import { marketplaceSlugsQueryKey } from '../marketplace/api';
import { auditQueryKey } from './auditApi';

export const adminPremiumSlugsQueryKey = ['/api/admin/premium-slugs'] as const;

export type PremiumSlugFilters = Required<Pick<AdminPremiumSlugsQuery, 'search' | 'page'>> &
  Pick<AdminPremiumSlugsQuery, 'category' | 'tier' | 'availability'>;

const listPath = (filters: PremiumSlugFilters) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  return `/api/admin/premium-slugs?${params.toString()}`;
};

/** GET /api/admin/premium-slugs: one page of 25 with the four cards. Admin queries never retry. */
export const adminPremiumSlugsQueryOptions = (filters: PremiumSlugFilters) =>
  queryOptions({
    queryKey: [...adminPremiumSlugsQueryKey, filters],
    queryFn: ({ signal }) => getJson(listPath(filters), adminPremiumSlugsPageSchema, { signal }),
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

/** POST /api/admin/premium-slugs (no list refresh: bulk add refreshes once at its end). */
export const createPremiumSlug = (body: CreatePremiumSlugBody) =>
  sendJson('POST', '/api/admin/premium-slugs', premiumSlugSchema, body);

export const useCreatePremiumSlug = () => usePremiumSlugChange(createPremiumSlug);

export const useUpdatePremiumSlug = () =>
  usePremiumSlugChange(({ id, changes }: { id: string; changes: UpdatePremiumSlugBody }) =>
    sendJson('PATCH', `/api/admin/premium-slugs/${encodeURIComponent(id)}`, premiumSlugSchema, changes),
  );

export const useDeletePremiumSlug = () =>
  usePremiumSlugChange((id: string) =>
    sendJson('DELETE', `/api/admin/premium-slugs/${encodeURIComponent(id)}`, deletedPremiumSlugSchema),
  );

export const useSeedPremiumSlugs = () =>
  usePremiumSlugChange(() => sendJson('POST', '/api/admin/premium-slugs/seed', premiumSeedResultSchema));
