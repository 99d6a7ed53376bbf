import { type CreateLinkBody, type Link, linkEndpoints, type UpdateLinkBody } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { currentUserQueryKey } from '../accounts/api';
import { userAnalyticsQueryKey } from '../analytics/api';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const {
  listLinks,
  linkTags,
  createLink,
  updateLink,
  deleteLink,
  duplicateLink,
  checkAvailability,
  linkHistory,
} = linkEndpoints;

/** A query's key starts with the path of the endpoint it asks (the GET URL, for a call without parameters). */
export const linksQueryKey = [listLinks.path] as const;

/** The most links the API answers at once. */
const linksPerCall = 1000;

/** The key of the tags with their counts (`controlsApi.ts`): refreshed with the links. */
export const linkTagsQueryKey = [linkTags.path] as const;

/**
 * The signed-in user's links, newest first; with `search`, those whose title, target or code holds it;
 * with `tag`, those carrying it. All of them: asked a thousand at a time (the API's most) until a shorter
 * answer says there are no more.
 */
export const linksQueryOptions = (search = '', tag = '') =>
  queryOptions({
    queryKey: search || tag ? ([...linksQueryKey, { search, tag }] as const) : linksQueryKey,
    queryFn: async ({ signal }) => {
      const links: Link[] = [];
      for (let offset = 0; ; offset += linksPerCall) {
        const query = {
          limit: String(linksPerCall),
          offset: String(offset),
          ...(search ? { search } : {}),
          ...(tag ? { tag } : {}),
        };
        const page = await call(listLinks, { query }, { signal });
        links.push(...page);
        if (page.length < linksPerCall) return links;
      }
    },
  });

/**
 * Whether a custom short code is free. Asked afresh each time (someone else may take a code meanwhile),
 * and not kept once the edit dialog stops asking.
 */
export const shortCodeAvailabilityQueryOptions = (code: string) =>
  queryOptions({
    queryKey: [checkAvailability.path, code] as const,
    queryFn: ({ signal }) => call(checkAvailability, { params: { code } }, { signal }),
    staleTime: 0,
    gcTime: 0,
  });

/** The key of every link's history: refreshed with the links, as any edit adds to one. */
const linkHistoryQueryKey = [linkHistory.path] as const;

/** One link's changes, newest first, with who made each. */
export const linkHistoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...linkHistoryQueryKey, id] as const,
    queryFn: ({ signal }) => call(linkHistory, { params: { id } }, { signal }),
  });

/**
 * After any change to links: the links list, their tags' counts, their histories, the user (their counts)
 * and the user's analytics.
 */
export const useLinkMutation = <Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) =>
  useRefreshingMutation(mutationFn, [
    linksQueryKey,
    linkTagsQueryKey,
    linkHistoryQueryKey,
    currentUserQueryKey,
    userAnalyticsQueryKey,
  ]);

export const useCreateLink = () => useLinkMutation((body: CreateLinkBody) => call(createLink, { body }));

/** An edit: the fields of the PATCH body (absent: unchanged) and the link's id. */
export type LinkChanges = UpdateLinkBody & { id: string };

export const useUpdateLink = () =>
  useLinkMutation(({ id, ...changes }: LinkChanges) => call(updateLink, { params: { id }, body: changes }));

export const useDeleteLink = () => useLinkMutation((id: string) => call(deleteLink, { params: { id } }));

/** Deletes the links one after another; answers how many were deleted (the rest failed). */
export const useDeleteLinks = () =>
  useLinkMutation(async (ids: readonly string[]) => {
    let deleted = 0;
    for (const id of ids) {
      await call(deleteLink, { params: { id } }).then(
        () => deleted++,
        () => undefined,
      );
    }
    return { deleted, failed: ids.length - deleted };
  });

export const useDuplicateLink = () =>
  useLinkMutation((id: string) => call(duplicateLink, { params: { id } }));
