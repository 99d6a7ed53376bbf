import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AuditPage, ErrorBody, SeoEntry } from '@sniplink/contracts';
import { createLogger, loadConfig } from '@sniplink/platform';
import { type HttpClient, signedUpClient, startTestApi, testApiWithAdmin } from '@sniplink/test-support/api';
import { pageHeadOf, webBuildOfIndexHtml } from '@sniplink/test-support/page-head';
import { until } from '@sniplink/test-support/until';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../../standalone/src/composition';

const ADMIN_EMAIL = 'seo.admin@example.com';
const PUBLIC_URL = 'https://snip.example.com';

let distDir: string | undefined;
const t = testApiWithAdmin(ADMIN_EMAIL, {
  env: { PUBLIC_URL },
  start: async (env) => {
    distDir = await webBuildOfIndexHtml();
    return startTestApi(env, { webDistDir: distDir });
  },
});
afterAll(async () => {
  if (distDir) await rm(distDir, { recursive: true, force: true });
});

let member: HttpClient;
beforeAll(async () => {
  ({ client: member } = await signedUpClient(t.api, 'seo.member'));
});

const entry = (overrides: Record<string, unknown> = {}) => ({
  title: 'About Sniplink: short links with honest click counts',
  description: 'Who makes Sniplink, and why short links should tell you who clicked.',
  keywords: 'link shortener, click tracking',
  ogTitle: 'Meet Sniplink',
  ogDescription: 'Short links with honest click counts.',
  ogImage: 'https://cdn.example.com/about-card.png',
  ...overrides,
});

const save = (client: HttpClient, page: string, body: unknown) =>
  client.request<SeoEntry & ErrorBody>('PUT', `/api/admin/seo/${page}`, body);

async function saved(page: string, body: unknown): Promise<SeoEntry> {
  const response = await save(t.admin, page, body);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const listedPages = async (client: HttpClient) => {
  const response = await client.get<SeoEntry[]>('/api/admin/seo');
  expect(response.status).toBe(200);
  return response.body.map((listed) => listed.page);
};

const headOfPage = async (client: HttpClient, path: string) => {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  return pageHeadOf(response.text);
};

describe('saving a page’s SEO entry', () => {
  it('answers the entry as stored: keywords tidied, public by default', async () => {
    const stored = await saved('contact', entry({ keywords: ' support ,, help desk, Support ,' }));
    expect(stored).toEqual({
      page: 'contact',
      path: '/contact',
      ...entry(),
      keywords: 'support, help desk',
      isPublic: true,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('leaves out what is blank: none, not an empty text', async () => {
    const stored = await saved('help', { title: 'Help with Sniplink', description: '  ', ogImage: '' });
    expect(stored).toMatchObject({
      description: null,
      keywords: null,
      ogTitle: null,
      ogDescription: null,
      ogImage: null,
      isPublic: true,
    });
  });

  it('is the console’s: 401 signed out, 403 for a user who is not an admin', async () => {
    expect(await save(t.api.client(), 'about', entry())).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await save(member, 'about', entry())).toMatchObject({
      status: 403,
      body: { code: 'ADMIN_REQUIRED', message: 'Admin access required.' },
    });
  });

  it.each([
    [{ description: 'd' }, 'title', 'title is required'],
    [{ title: ' \u200B ' }, 'title', 'title must not be blank'],
    [
      entry({ ogImage: 'http://cdn.example.com/card.png' }),
      'ogImage',
      'ogImage must be an https URL (https://…)',
    ],
    [entry({ ogImage: 'javascript:alert(1)' }), 'ogImage', 'ogImage must be an https URL (https://…)'],
    [entry({ ogImage: 'cdn.example.com/card.png' }), 'ogImage', 'ogImage must be an https URL (https://…)'],
    [entry({ isPublic: 'yes' }), 'isPublic', undefined],
    [entry({ title: 'x'.repeat(201) }), 'title', 'title must be at most 200 characters'],
  ])('refuses %j with a 400 naming %s', async (body, field, message) => {
    const response = await save(t.admin, 'about', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', field });
    if (message) expect(response.body.message).toBe(message);
  });

  it('refuses a body naming another page than the address', async () => {
    const response = await save(t.admin, 'about', entry({ page: 'terms' }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      field: 'page',
      message: 'page is "terms", but the address names "about"',
    });
    expect((await save(t.admin, 'about', entry({ page: 'about' }))).status).toBe(200);
  });

  it('answers 404 naming the pages for a page that has no SEO entry', async () => {
    for (const page of ['admin', 'nowhere', 'constructor']) {
      const response = await save(t.admin, page, entry());
      expect(response.status, page).toBe(404);
      expect(response.body).toMatchObject({
        code: 'NOT_FOUND',
        message: `No page "${page}" has SEO settings; the pages are landing, home, subscribe, marketplace, about, privacy, terms, contact, help`,
      });
    }
  });

  it('is in the audit history as the admin’s change of that page', async () => {
    await saved('marketplace', entry({ title: 'Premium short links for sale' }));
    const history = await t.admin.get<AuditPage>('/api/admin/audit?target=seo-marketplace');
    expect(history.status).toBe(200);
    expect(history.body.entries[0]).toMatchObject({
      action: 'SeoSettingsUpdated',
      actor: { id: t.adminId, email: ADMIN_EMAIL, kind: 'admin' },
      target: { type: 'seo', id: 'marketplace' },
      details: { page: 'marketplace', title: 'Premium short links for sale', isPublic: true },
    });
  });
});

describe('GET /api/admin/seo, open to anyone', () => {
  beforeAll(async () => {
    await saved('about', entry());
    await saved('terms', entry({ title: 'Terms, being rewritten', isPublic: false }));
  });

  it('lists the public entries only to a visitor and to a user', async () => {
    for (const client of [t.api.client(), member]) {
      const pages = await listedPages(client);
      expect(pages).toContain('about');
      expect(pages).not.toContain('terms');
    }
  });

  it('lists every entry to an admin, those kept from the public too', async () => {
    expect(await listedPages(t.admin)).toEqual(expect.arrayContaining(['about', 'terms']));
  });
});

describe('the served pages as a crawler reads them', () => {
  it('carry the public entry’s title, description, keywords, canonical, Open Graph and Twitter tags', async () => {
    await saved('about', entry());
    const head = await headOfPage(t.api.client(), '/about');
    expect(head.titles).toEqual([entry().title]);
    expect(head.descriptions).toEqual([entry().description]);
    expect(head.keywords).toEqual(['link shortener, click tracking']);
    expect(head.canonical).toEqual([`${PUBLIC_URL}/about`]);
    expect(head.og('title')).toEqual(['Meet Sniplink']);
    expect(head.og('description')).toEqual(['Short links with honest click counts.']);
    expect(head.og('image')).toEqual(['https://cdn.example.com/about-card.png']);
    expect(head.og('url')).toEqual([`${PUBLIC_URL}/about`]);
    expect(head.twitter('card')).toEqual(['summary_large_image']);
    expect(head.twitter('title')).toEqual(['Meet Sniplink']);
    expect(head.twitter('description')).toEqual(['Short links with honest click counts.']);
    expect(head.twitter('image')).toEqual(['https://cdn.example.com/about-card.png']);
  });

  it('show a change on the next load, with no restart', async () => {
    await saved('about', entry({ title: 'About us, first title' }));
    expect((await headOfPage(t.api.client(), '/about')).titles).toEqual(['About us, first title']);
    await saved('about', entry({ title: 'About us, second title' }));
    expect((await headOfPage(t.api.client(), '/about')).titles).toEqual(['About us, second title']);
  });

  it('escape what an entry holds: no tag or attribute of it reaches the page', async () => {
    const attack = '"><script>alert(1)</script>';
    await saved('privacy', {
      title: attack,
      description: attack,
      keywords: attack,
      ogTitle: attack,
      ogDescription: attack,
      ogImage: `https://cdn.example.com/${attack}`,
    });
    const response = await t.api.client().get('/privacy');
    expect(response.text).not.toContain('<script>alert(1)');
    expect(response.text).not.toContain('"><script');
    const head = pageHeadOf(response.text);
    expect(head.titles).toEqual([attack]);
    expect(head.descriptions).toEqual([attack]);
    expect(head.og('title')).toEqual([attack]);
    expect(head.twitter('description')).toEqual([attack]);
  });

  it('keep their own title and tags while the entry is not public', async () => {
    await saved('terms', entry({ title: 'Terms, being rewritten', isPublic: false }));
    const head = await headOfPage(t.api.client(), '/terms');
    expect(head.titles).toEqual(['Terms of Use | Sniplink']);
    expect(head.keywords).toEqual([]);
    expect(head.og('image')).toEqual([]);
    expect(head.twitter('card')).toEqual(['summary']);
  });

  it('keep the signed-in dashboard out of search results with its entry applied', async () => {
    await saved('home', entry({ title: 'Your Sniplink dashboard' }));
    const head = await headOfPage(t.api.client(), '/home');
    expect(head.titles).toEqual(['Your Sniplink dashboard']);
    expect(head.robots).toEqual(['noindex']);
    expect(head.og('title')).toEqual([]);
  });

  it('keep the default title with the brand for a page without an entry', async () => {
    expect((await headOfPage(t.api.client(), '/subscribe')).titles).toEqual(['Choose Your Plan | Sniplink']);
  });
});

describe('robots.txt and the sitemap', () => {
  it('robots.txt lets crawlers read the public pages and short links, not the API or signed-in pages', async () => {
    const response = await t.api.client().get('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = response.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Disallow: /admin',
        'Disallow: /home',
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
      ]),
    );
    expect(lines.filter((line) => line.startsWith('Disallow: /s'))).toEqual([]);
  });

  it('the sitemap lists the public pages by their address, less one whose entry is not public', async () => {
    await saved('terms', entry({ title: 'Terms, being rewritten', isPublic: false }));
    await saved('about', entry());
    const response = await t.api.client().get('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locations = [...response.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual([
      `${PUBLIC_URL}/`,
      `${PUBLIC_URL}/subscribe`,
      `${PUBLIC_URL}/marketplace`,
      `${PUBLIC_URL}/about`,
      `${PUBLIC_URL}/privacy`,
      `${PUBLIC_URL}/contact`,
      `${PUBLIC_URL}/help`,
    ]);
    expect(response.text).toMatch(
      /<url><loc>https:\/\/snip\.example\.com\/about<\/loc><lastmod>\d{4}-\d\d-\d\d<\/lastmod><\/url>/,
    );
  });
});

describe('a second app process on the same database, without projections or PUBLIC_URL', () => {
  let other: FastifyInstance | undefined;
  let stopOther: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-seo-'));
    const config = loadConfig({
      DATABASE_URL: t.api.database.connectionString,
      DATA_DIR: dataDir,
      PROJECTIONS: 'off',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
    });
    const started = await startApp(config, createLogger('silent'), { webDistDir: distDir });
    other = started.app;
    stopOther = async () => {
      await started.app.close();
      await started.runtime.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => stopOther?.());

  const titleThere = async (page: string) => pageHeadOf((await other?.inject(page))?.body ?? '').titles[0];

  it('serves a change made in the first on its next page load', async () => {
    await saved('contact', entry({ title: 'Contact the Sniplink team, v1' }));
    expect(
      await until(
        () => titleThere('/contact'),
        (title) => title === 'Contact the Sniplink team, v1',
      ),
    ).toBe('Contact the Sniplink team, v1');
    const changedAt = Date.now();
    await saved('contact', entry({ title: 'Contact the Sniplink team, v2' }));
    expect(
      await until(
        () => titleThere('/contact'),
        (title) => title === 'Contact the Sniplink team, v2',
      ),
    ).toBe('Contact the Sniplink team, v2');
    console.info(`[seo] the other process served the change within ${Date.now() - changedAt} ms`);
  });

  it('answers no sitemap without a public address, and names none in robots.txt', async () => {
    const sitemap = await other?.inject('/sitemap.xml');
    expect(sitemap?.statusCode).toBe(404);
    expect(sitemap?.body).toContain('PUBLIC_URL');
    const robots = await other?.inject('/robots.txt');
    expect(robots?.statusCode).toBe(200);
    expect(robots?.body).not.toContain('Sitemap:');
  });
});
