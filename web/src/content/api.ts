import type { PageCopyKey, SavePageCopyBody } from '@sniplink/contracts/content/api';
import { pageCopyAdminEndpoints } from '@sniplink/contracts/content/endpoints';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';
import { publishedPageCopyKey } from './publishedApi';

const { listPageCopy, pageCopy, savePageCopy, publishPageCopy, pageCopyVersions } = pageCopyAdminEndpoints;

/** The console's queries of page copy all start with this key: a change refreshes them together. */
const adminPageCopyKey = [listPageCopy.path] as const;

/** A page's draft and where it stands. Admin queries never retry. */
export const pageCopyQueryOptions = (page: PageCopyKey) =>
  queryOptions({
    queryKey: [...adminPageCopyKey, page],
    queryFn: ({ signal }) => call(pageCopy, { params: { page } }, { signal }),
    retry: false,
  });

/** A page's published versions, newest first. */
export const pageCopyVersionsQueryOptions = (page: PageCopyKey) =>
  queryOptions({
    queryKey: [...adminPageCopyKey, page, 'versions'],
    queryFn: ({ signal }) => call(pageCopyVersions, { params: { page } }, { signal }),
    retry: false,
  });

/** What the editor opens with: the draft and the versions. */
export const loadPageCopyEditor = (queryClient: QueryClient, page: PageCopyKey) =>
  Promise.all([
    queryClient.ensureQueryData(pageCopyQueryOptions(page)),
    queryClient.ensureQueryData(pageCopyVersionsQueryOptions(page)),
  ]);

/** A change refreshes the console's page copy and what the public page shows. */
const refreshed = (page: PageCopyKey) => [adminPageCopyKey, publishedPageCopyKey(page)];

export const useSavePageCopy = (page: PageCopyKey) =>
  useRefreshingMutation(
    (body: Pick<SavePageCopyBody, 'title' | 'content'>) => call(savePageCopy, { params: { page }, body }),
    refreshed(page),
  );

export const usePublishPageCopy = (page: PageCopyKey) =>
  useRefreshingMutation(() => call(publishPageCopy, { params: { page } }), refreshed(page));
