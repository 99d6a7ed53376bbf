import type { SeoEvent, SeoSettings } from '@sniplink/contracts';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { seoProjection } from './projection';
import { seoEntries } from './queries';

const settings = (title: string, overrides: Partial<SeoSettings> = {}): SeoSettings => ({
  title,
  description: null,
  keywords: null,
  ogTitle: null,
  ogDescription: null,
  ogImage: null,
  isPublic: true,
  ...overrides,
});

/** Help saved once; about saved, then kept from the public with an image. */
const histories: Record<string, SeoEvent[]> = {
  help: [{ type: 'SeoSettingsUpdated', data: { page: 'help', ...settings('Help') } }],
  about: [
    { type: 'SeoSettingsUpdated', data: { page: 'about', ...settings('About v1') } },
    {
      type: 'SeoSettingsUpdated',
      data: {
        page: 'about',
        ...settings('About v2', { ogImage: 'https://cdn.example.com/a.png', isPublic: false }),
      },
    },
  ],
};

describe('SEO settings projection', () => {
  const spec = projectionSpec(seoProjection);
  // Each stream's events a second apart from 2027-01-01 00:00 UTC, as their revisions go.
  beforeAll(() =>
    spec.given(
      Object.entries(histories).flatMap(([page, history]) =>
        history.map((event, revision) => ({
          streamId: `seo-${page}`,
          event,
          occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, revision)),
        })),
      ),
    ),
  );

  it('lists each page as its last event left it, in the order of the pages', async () => {
    expect(await seoEntries(spec.db)).toEqual([
      {
        page: 'about',
        path: '/about',
        ...settings('About v2', { ogImage: 'https://cdn.example.com/a.png', isPublic: false }),
        updatedAt: '2027-01-01T00:00:01.000Z',
      },
      { page: 'help', path: '/help', ...settings('Help'), updatedAt: '2027-01-01T00:00:00.000Z' },
    ]);
  });
});
