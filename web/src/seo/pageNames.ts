import type { SeoPage } from '@sniplink/contracts';

/** Each page's name as the SEO tab lists it. */
export const pageNames: Record<SeoPage, string> = {
  landing: 'Landing',
  home: 'Home',
  subscribe: 'Subscribe',
  marketplace: 'Marketplace',
  about: 'About',
  privacy: 'Privacy',
  terms: 'Terms',
  contact: 'Contact',
  help: 'Help',
};
