import type { SeoEntry } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { titleFor } from './pageTitle';

const entry = (page: SeoEntry['page'], path: string, title: string, isPublic = true): SeoEntry => ({
  page,
  path,
  title,
  description: null,
  keywords: null,
  ogTitle: null,
  ogDescription: null,
  ogImage: null,
  isPublic,
  updatedAt: '2027-01-01T00:00:00.000Z',
});

describe('a page’s document title', () => {
  const entries = [
    entry('about', '/about', 'All about our short links'),
    entry('terms', '/terms', 'Draft', false),
  ];

  it('is the public SEO entry’s title, as written, on that page', () => {
    expect(titleFor('/about', 'About Sniplink', entries)).toBe('All about our short links');
  });

  it('is the page’s own title with the brand without an entry, or while the entry is not public', () => {
    expect(titleFor('/help', 'Help', entries)).toBe('Help | Sniplink');
    expect(titleFor('/terms', 'Terms of Use', entries)).toBe('Terms of Use | Sniplink');
    expect(titleFor('/about', 'About Sniplink', undefined)).toBe('About Sniplink | Sniplink');
  });

  it('keeps an error’s or not-found title shown at a page’s address', () => {
    expect(titleFor('/about', 'Something went wrong', entries)).toBe('Something went wrong | Sniplink');
    expect(titleFor('/nowhere', 'Page Not Found', entries)).toBe('Page Not Found | Sniplink');
  });
});
