import { seoEndpoints } from '@sniplink/contracts';
import { type PagePath, pages } from '@sniplink/contracts/pages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentSession } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { ADMIN } from '../admin/routes';
import { featureRoutes, operation, text } from '../http/route-schema';
import { escapeHtml } from '../web';
import type { SeoService } from './seo-service';
import type { ServedSeo } from './served-seo';

export interface SeoRoutesDeps {
  seo: SeoService;
  served: ServedSeo;
  sessions: SessionStore;
  /** Whether the account holds the admin flag now (the admin gate's own question). */
  isAdmin(userId: string): Promise<boolean>;
  /** PUBLIC_URL, when the operator set one: the sitemap's addresses are absolute. */
  publicUrl: string | undefined;
}

const SEO = { tag: 'SEO' };

/**
 * The list of SEO entries, robots.txt and the sitemap: open to anyone. The list's path is the console's
 * (`/api/admin/seo`), but it is registered here, outside the admin gate, rather than let through by it:
 * the gate stays one rule with no exceptions (every route in its scope is an admin's), and this route says
 * for itself what a caller who is not an admin gets, the public entries only.
 */
export async function seoRoutes(app: FastifyInstance, deps: SeoRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(seoEndpoints, { ...SEO, session: 'optional' });

  api.route({
    ...route('listSeo', {
      summary: "The pages' SEO entries",
      description:
        'Open to anyone: the public entries (`isPublic` true), which the web app sets its page titles from. An admin gets every entry, those kept from the public too. A page without an entry is not listed.',
      answers: { 200: 'The entries, in the order of the pages' },
    }),
    handler: async (request) => {
      const session = await currentSession(request, deps.sessions);
      const admin = session ? await deps.isAdmin(session.userId) : false;
      return deps.seo.list({ admin });
    },
  });

  api.get('/robots.txt', { schema: ROBOTS }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(deps.publicUrl)),
  );

  api.get('/sitemap.xml', { schema: SITEMAP }, async (_request, reply) => {
    if (!deps.publicUrl) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send(
          "No sitemap: a sitemap lists absolute addresses, and this site's public address (PUBLIC_URL) is not configured.\n",
        );
    }
    await deps.served.refresh();
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(sitemapXml(deps.publicUrl, deps.served));
  });
}

/** The console's SEO tab: saving a page's entry. Paths are relative to `/api/admin`, behind its gate. */
export async function seoAdminRoutes(admin: FastifyInstance, { seo }: { seo: SeoService }): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const adminRoute = featureRoutes(seoEndpoints, { ...ADMIN, ...SEO });

  api.route({
    ...adminRoute('updateSeo', {
      summary: "Save a page's SEO entry",
      description:
        "The page is one of landing, home, subscribe, marketplace, about, privacy, terms, contact, help (another is a 404 naming them). `title` is required; `description`, `keywords` (comma-separated), `ogTitle`, `ogDescription` and `ogImage` (an https URL) may be left out; `isPublic` defaults to true. A public entry replaces the page's own title and tags in the HTML it is served with from the next load on.",
      answers: { 200: 'The entry as stored' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => seo.update(request.params.page, request.body),
  });
}

/**
 * Crawlers may read the public pages and follow short links (`/s/…`, allowed: a link shared on the web
 * leads a search engine to its target, as with any shortener); they are kept from the API, the signed-in
 * pages, the checkout and the password reset (their links carry tokens). The sitemap is named when the
 * public address is known.
 */
export function robotsTxt(publicUrl: string | undefined): string {
  const lines = [
    'User-agent: *',
    'Allow: /',
    ...KEPT_FROM_CRAWLERS.map((path) => `Disallow: ${path}`),
    ...(publicUrl ? ['', `Sitemap: ${publicUrl}/sitemap.xml`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

const KEPT_FROM_CRAWLERS = [
  '/api/',
  '/admin',
  '/home',
  '/profile',
  '/onboarding',
  '/premium/',
  '/reset-password',
  '/pay/',
];

/**
 * The pages a search engine should list: the SEO tab's pages that are indexed (not the signed-in
 * dashboard), less those whose entry is kept from the public; each with the date its entry last changed.
 */
export function sitemapXml(publicUrl: string, served: Pick<ServedSeo, 'all'>): string {
  const entries = new Map(served.all().map((entry) => [entry.path, entry]));
  const urls = SITEMAP_PAGES.filter((path) => entries.get(path)?.isPublic !== false).map((path) => {
    const updatedAt = entries.get(path)?.updatedAt;
    const lastmod = updatedAt ? `<lastmod>${updatedAt.slice(0, 10)}</lastmod>` : '';
    return `  <url><loc>${escapeHtml(`${publicUrl}${path}`)}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

const SITEMAP_PAGES = (
  ['/', '/subscribe', '/marketplace', '/about', '/privacy', '/terms', '/contact', '/help'] as const
).filter((path: PagePath) => pages[path].indexing === 'index');

const ROBOTS = operation({
  operationId: 'robotsTxt',
  ...SEO,
  summary: 'What crawlers may read',
  answers: { 200: text('robots.txt', 'text/plain') },
});

const SITEMAP = operation({
  operationId: 'sitemapXml',
  ...SEO,
  summary: 'The public pages, for search engines',
  answers: {
    200: text('The sitemap (sitemaps.org)', 'application/xml'),
    404: text(
      'No public address (PUBLIC_URL) is configured: the sitemap needs absolute addresses',
      'text/plain',
    ),
  },
});
