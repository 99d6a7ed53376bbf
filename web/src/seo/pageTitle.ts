import type { SeoEntry } from '@sniplink/contracts';
import { documentTitle, isPagePath, pages } from '@sniplink/contracts/pages';

/**
 * The document title of the page at `pathname` showing `ownTitle`: a public SEO entry's title as the admin
 * wrote it when the page has one and shows its own title; otherwise "{title} | Sniplink". An error or
 * not-found title shown at a page's address keeps its own words.
 */
export function titleFor(
  pathname: string,
  ownTitle: string,
  entries: readonly SeoEntry[] | undefined,
): string {
  const isPagesOwnTitle = isPagePath(pathname) && pages[pathname].title === ownTitle;
  const entry = isPagesOwnTitle
    ? entries?.find((candidate) => candidate.path === pathname && candidate.isPublic)
    : undefined;
  return entry?.title ?? documentTitle(ownTitle);
}
