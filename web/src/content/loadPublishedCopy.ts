import type { PageCopyKey } from '@sniplink/contracts/content/api';
import type { QueryClient } from '@tanstack/react-query';

/**
 * A public informational page's loader: ensures its published copy. The copy's calls and schemas are
 * imported here rather than above, since every route's loader sits in the app's first chunk, which the
 * landing page pays for, and they belong to these pages alone.
 */
export const loadPublishedCopy = (queryClient: QueryClient, page: PageCopyKey) =>
  import('./publishedApi').then(({ publishedPageCopyQueryOptions }) =>
    queryClient.ensureQueryData(publishedPageCopyQueryOptions(page)),
  );
