import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  brandName,
  documentTitle,
  notFoundPage,
  type PageMeta,
  type PagePath,
  pageOf,
  pages,
} from '@sniplink/contracts/pages';
import type { SeoSettings } from '@sniplink/contracts/seo/api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { serverPageRenderer } from './web-render';

export type PageRenderer = (pathname: string, reply: FastifyReply) => FastifyReply;

export interface WebAppOptions {
  /**
   * This site's public address (PUBLIC_URL) when one is configured: public pages then name their own
   * address in og:url and a canonical link. Without it they name none (a guessed localhost would mislead).
   */
  publicUrl?: string;
  /** The SEO entries an admin set for pages: where one is, the page's head carries it instead of its own. */
  seo?: PageSeoSource;
}

/** The SEO entries applied to served pages, by the page's path. */
export interface PageSeoSource {
  /** The same map until an entry changes: pages are rendered again when it is another. */
  current(): ReadonlyMap<string, SeoSettings>;
}

/**
 * Serves the built web app's hashed assets (cached for a year, brotli or gzip from the `.br` and `.gz`
 * files the build writes beside each one, as the browser accepts) and returns the page renderer for the
 * not-found handler; undefined when the web app is not built. Each page's HTML carries its title,
 * description and Open Graph tags (from `@sniplink/contracts/pages`), so crawlers without JavaScript
 * read what the browser tab shows; any other path gets the not-found page with status 404.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  options: WebAppOptions = {},
): Promise<PageRenderer | undefined> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built (run `npm run build:web`); serving the API only');
    return undefined;
  }
  const pageHtml = renderedPages(
    currentFile(indexFile),
    options.publicUrl?.replace(/\/+$/, ''),
    options.seo ?? noSeo,
  );
  await app.register(fastifyStatic, {
    root: path.join(distDir, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
    // The build compresses each asset once, at its best levels; nothing is compressed per request.
    preCompressed: true,
    // The same URL answers brotli, gzip or the plain file: caches must key on what the browser accepts.
    setHeaders: (response) => response.setHeader('vary', 'Accept-Encoding'),
  });
  const renderBody = serverPageRenderer(app, distDir);
  return (pathname, reply) => {
    const page = pageOf(pathname);
    reply
      .code(page ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8');
    // The public pages come with their markup (web-render.ts); the reply is sent once it is rendered.
    const html = pageHtml(page);
    const rendered = renderBody?.(reply.request, html);
    if (!rendered) return reply.send(html);
    void rendered.then((html) => reply.send(html));
    return reply;
  };
}

const noSeo: PageSeoSource = { current: () => new Map() };

/**
 * index.html with one page's head tags (undefined: the not-found page), rendered once per page,
 * index.html version and set of SEO entries: at most one entry per known path plus one for "not found".
 */
function renderedPages(
  indexHtml: () => IndexVersion,
  publicUrl: string | undefined,
  seoSource: PageSeoSource,
): (page: PagePath | undefined) => string {
  let cache = {
    version: undefined as IndexVersion | undefined,
    seo: undefined as ReadonlyMap<string, SeoSettings> | undefined,
    pages: new Map<string, string>(),
  };
  return (page) => {
    const version = indexHtml();
    const seo = seoSource.current();
    if (version !== cache.version || seo !== cache.seo) cache = { version, seo, pages: new Map() };
    const key = page ?? '';
    let html = cache.pages.get(key);
    if (html === undefined) {
      const head = page
        ? pageHead(pages[page], publicUrl && `${publicUrl}${page}`, seo.get(page))
        : pageHead(notFoundPage, undefined);
      html = withHead(version.text, head);
      cache.pages.set(key, html);
    }
    return html;
  };
}

/**
 * The tags a page's HTML carries for search engines and link previews: its title and description;
 * public pages add Open Graph and a Twitter card (plus og:url and canonical when the address is known),
 * signed-in pages and "not found" add `noindex` instead. An admin's SEO entry, when given, replaces the
 * page's own: its title as written (no brand suffix), its description where it has one, its keywords, and
 * its Open Graph title, description and image (the title and description where it has none); an image
 * makes the Twitter card a large one.
 */
export function pageHead(page: PageMeta, url: string | undefined, seo?: SeoSettings): string {
  const title = escapeHtml(seo?.title ?? documentTitle(page.title));
  const description = escapeHtml(seo?.description ?? page.description);
  const tags = [`<title>${title}</title>`, `<meta name="description" content="${description}" />`];
  if (seo?.keywords) tags.push(`<meta name="keywords" content="${escapeHtml(seo.keywords)}" />`);
  if (page.indexing === 'noindex') {
    tags.push('<meta name="robots" content="noindex" />');
    return tags.join('\n    ');
  }
  const ogTitle = seo?.ogTitle ? escapeHtml(seo.ogTitle) : title;
  const ogDescription = seo?.ogDescription ? escapeHtml(seo.ogDescription) : description;
  const image = seo?.ogImage ? escapeHtml(seo.ogImage) : undefined;
  tags.push(
    `<meta property="og:title" content="${ogTitle}" />`,
    `<meta property="og:description" content="${ogDescription}" />`,
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${escapeHtml(brandName)}" />`,
    ...(image ? [`<meta property="og:image" content="${image}" />`] : []),
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${ogTitle}" />`,
    `<meta name="twitter:description" content="${ogDescription}" />`,
    ...(image ? [`<meta name="twitter:image" content="${image}" />`] : []),
  );
  if (url) {
    tags.push(
      `<meta property="og:url" content="${escapeHtml(url)}" />`,
      `<link rel="canonical" href="${escapeHtml(url)}" />`,
    );
  }
  return tags.join('\n    ');
}

/** index.html with its default `<title>` and description replaced by a page's head tags. */
function withHead(indexHtml: string, head: string): string {
  const html = indexHtml.replace(/\s*<meta\s+name="description"[^>]*>/i, '');
  const title = /<title>[^<]*<\/title>/i;
  // Replacer functions: a `$` in a title must not be read as a replacement pattern.
  return title.test(html)
    ? html.replace(title, () => head)
    : html.replace('</head>', () => `${head}\n</head>`);
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element and inside a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);
}

interface IndexVersion {
  mtimeMs: number;
  text: string;
}

/**
 * The file's text, read again when it changes: a rebuilt web app (new hashed asset names) is served
 * without restarting the server. One stat per page request; assets are not affected. The same object
 * is returned until the file changes, so callers can cache what they derive from it.
 */
function currentFile(file: string): () => IndexVersion {
  let cached: IndexVersion = { mtimeMs: -1, text: '' };
  return () => {
    const { mtimeMs } = statSync(file);
    if (mtimeMs !== cached.mtimeMs) cached = { mtimeMs, text: readFileSync(file, 'utf8') };
    return cached;
  };
}
