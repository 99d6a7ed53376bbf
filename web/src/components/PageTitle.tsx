import { brandName } from '@sniplink/contracts/pages';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from '@tanstack/react-router';
import { publicSeoQueryOptions } from '../seo/api';
import { titleFor } from '../seo/pageTitle';

export { brandName };

/**
 * Sets the document title to "{title} | Sniplink", or to the title an admin set for the page in its
 * public SEO entry (React 19 hoists <title> into <head>, ahead of the one the server wrote). Titles come
 * from `@sniplink/contracts/pages`, which the server uses too; the entries are asked once and kept 5 minutes.
 */
export function PageTitle({ title }: { title: string }) {
  const pathname = useLocation({ select: (location) => location.pathname });
  const { data: entries } = useQuery(publicSeoQueryOptions());
  return <title>{titleFor(pathname, title, entries)}</title>;
}
