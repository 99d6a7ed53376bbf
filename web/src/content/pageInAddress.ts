import type { PageCopyKey } from '@sniplink/contracts/content/api';

/** The page the address names (`/admin?tab=content&copy=terms`), privacy when none. */
export const pageInAddress = (copy: PageCopyKey | undefined): PageCopyKey => copy ?? 'privacy';
