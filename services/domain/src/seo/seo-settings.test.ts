import type { SeoEvent, SeoSettings } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { seoSettingsDecider } from './seo-settings';

const given = specFor(seoSettingsDecider);
const settings: SeoSettings = {
  title: 'About Sniplink: short links for local shops',
  description: null,
  keywords: 'links, tracking',
  ogTitle: null,
  ogDescription: null,
  ogImage: 'https://cdn.example.com/about.png',
  isPublic: true,
};
const updated: SeoEvent = { type: 'SeoSettingsUpdated', data: { page: 'about', ...settings } };

describe('a page’s SEO settings', () => {
  it('records the whole entry on every save, the first and the later ones', () => {
    given([]).when({ type: 'UpdateSeoSettings', page: 'about', settings }).then([updated]);
    const hidden = { ...settings, isPublic: false };
    given([updated])
      .when({ type: 'UpdateSeoSettings', page: 'about', settings: hidden })
      .then([{ type: 'SeoSettingsUpdated', data: { page: 'about', ...hidden } }]);
  });

  it('records nothing when the entry saved is the one stored', () => {
    given([updated]).when({ type: 'UpdateSeoSettings', page: 'about', settings }).then([]);
  });

  it('refuses a page the SEO tab does not have, naming the pages it has', () => {
    for (const page of ['admin', 'About', '__proto__', 'constructor', '']) {
      given([])
        .when({ type: 'UpdateSeoSettings', page, settings })
        .thenThrows({
          status: 404,
          message: `No page "${page}" has SEO settings; the pages are landing, home, subscribe, marketplace, about, privacy, terms, contact, help`,
        });
    }
  });
});
