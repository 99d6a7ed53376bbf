import { type SeoEntry, seoEndpoints, type UpdateSeoBody } from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';

const { listSeo, updateSeo } = seoEndpoints;
/** Every SEO query's key starts with the list's path: a save asks them all again. */
const SEO = listSeo.path;

/** How long the page titles keep the entries before asking again: 5 minutes. */
const PAGE_TITLES_CACHE_MS = 5 * 60 * 1000;

/**
 * The public entries, which the page titles follow: asked once, kept 5 minutes. Without them (a failed
 * call) every page keeps its own title.
 */
export const publicSeoQueryOptions = () =>
  queryOptions({
    queryKey: [SEO] as const,
    queryFn: ({ signal }) => call(listSeo, {}, { signal }),
    staleTime: PAGE_TITLES_CACHE_MS,
    retry: false,
  });

/**
 * The SEO tab's entries, those kept from the public too (the server answers an admin every entry):
 * a key of its own, so that a list cached for the page titles before the admin signed in is never
 * shown in the console. Admin queries never retry.
 */
export const consoleSeoQueryOptions = () =>
  queryOptions({
    queryKey: [SEO, 'console'] as const,
    queryFn: ({ signal }) => call(listSeo, {}, { signal }),
    staleTime: 0,
    retry: false,
  });

/** Saves a page's entry; the console's list and the page titles ask again. */
export function useSaveSeo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ page, body }: { page: string; body: UpdateSeoBody }) =>
      call(updateSeo, { params: { page }, body }),
    onSuccess: async (saved: SeoEntry) => {
      queryClient.setQueryData(consoleSeoQueryOptions().queryKey, (listed) =>
        listed ? [...listed.filter((entry) => entry.page !== saved.page), saved] : listed,
      );
      await queryClient.invalidateQueries({ queryKey: [SEO] });
    },
  });
}
