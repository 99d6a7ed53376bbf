import type { SeoPage } from '@sniplink/contracts';
import type { ComponentType } from 'react';

/** What a page copy editor is given: the page whose copy it edits. */
export interface PageCopyEditorProps {
  page: SeoPage;
}

/**
 * Editors of a page's copy (its text, as opposed to its head tags), by page: the SEO editor offers the
 * page's editor under its settings when one is listed here. The content feature lists its own (privacy
 * and terms); a page without one shows nothing more.
 */
export const pageCopyEditors: Partial<Record<SeoPage, ComponentType<PageCopyEditorProps>>> = {};
