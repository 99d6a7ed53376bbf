import type { PageCopyKey } from '@sniplink/contracts/content/api';
import { pageCopyEndpoints } from '@sniplink/contracts/content/endpoints';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';

const { publishedPageCopy } = pageCopyEndpoints;

/** The key of every public page's copy: a change in the console refreshes it. */
export const publishedPageCopyKey = (page: PageCopyKey) => [publishedPageCopy.path, page] as const;

/**
 * What a public informational page shows: its published copy, or `published: null` while there is none.
 * Route loaders ensure it (in the browser and when the page is rendered on the server); the page reads it
 * with `useSuspenseQuery`. Kept apart from the console's calls: every route's loader is in the app's first
 * chunk.
 */
export const publishedPageCopyQueryOptions = (page: PageCopyKey) =>
  queryOptions({
    queryKey: publishedPageCopyKey(page),
    queryFn: ({ signal }) => call(publishedPageCopy, { params: { page } }, { signal }),
  });
