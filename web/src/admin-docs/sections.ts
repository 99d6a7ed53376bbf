import type { AdminDocSection } from '@sniplink/contracts/admin-docs/api';

/** A section as the console names it: after its tab. */
export const sectionLabels: Record<AdminDocSection, string> = {
  config: 'Config',
  users: 'Users',
  premium: 'Premium',
  seo: 'SEO',
  support: 'Support',
  moderation: 'Moderation',
};
