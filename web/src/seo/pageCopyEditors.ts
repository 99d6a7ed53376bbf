import type { SeoPage } from '@sniplink/contracts';
import { type PageCopyKey, pageCopyKeys } from '@sniplink/contracts/content/api';
import { lazy } from 'react';

/**
 * Whether a page's copy (its text, as opposed to its head tags) is written in the console: the SEO editor
 * of such a page offers its copy editor under the settings.
 */
export const hasPageCopy = (page: SeoPage | undefined): page is SeoPage & PageCopyKey =>
  (pageCopyKeys as readonly string[]).includes(page ?? '');

/** The copy editor, with the markdown renderer: loaded when an editor of such a page first opens. */
export const PageCopyEditor = lazy(() =>
  import('../content/PageCopyEditor').then((module) => ({ default: module.PageCopyEditor })),
);
