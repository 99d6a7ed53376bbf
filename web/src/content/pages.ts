import type { PageCopyKey } from '@sniplink/contracts/content/api';

/** Where each page with editable copy is shown. */
export const pageCopyPath = {
  privacy: '/privacy',
  terms: '/terms',
  about: '/about',
  contact: '/contact',
  help: '/help',
} as const satisfies Record<PageCopyKey, string>;
