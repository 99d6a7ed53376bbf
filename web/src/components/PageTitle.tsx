import { brandName, documentTitle } from '@sniplink/contracts/pages';

export { brandName };

/**
 * Sets the document title to "{title} | Sniplink" (React 19 hoists <title> into <head>, ahead of the one
 * the server wrote). Titles come from `@sniplink/contracts/pages`, which the server uses too.
 */
export function PageTitle({ title }: { title: string }) {
  return <title>{documentTitle(title)}</title>;
}
