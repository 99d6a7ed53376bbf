import type { PageCopyKey } from '@sniplink/contracts/content/api';

/** Where each page with editable copy is shown, and its name in the console. */
export const pageCopyPath = {
  privacy: '/privacy',
  terms: '/terms',
  about: '/about',
  contact: '/contact',
  help: '/help',
} as const satisfies Record<PageCopyKey, string>;

export const pageCopyLabel: Record<PageCopyKey, string> = {
  privacy: 'Privacy',
  terms: 'Terms',
  about: 'About',
  contact: 'Contact',
  help: 'Help',
};
