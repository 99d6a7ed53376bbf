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
import type { FastifyInstance, FastifyReply } from 'fastify';

export type PageRenderer = (pathname: string, reply: FastifyReply) => FastifyReply;

export interface WebAppOptions {
  /**
   * This site's public address (PUBLIC_URL) when one is configured: public pages then name their own
   * address in og:url and a canonical link. Without it they name none (a guessed localhost would mislead).
   */
  publicUrl?: string;
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
  const pageHtml = renderedPages(currentFile(indexFile), options.publicUrl?.replace(/\/+$/, ''));
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
  return (pathname, reply) => {
    const page = pageOf(pathname);
    return reply
      .code(page ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(pageHtml(page));
  };
}

/**
 * index.html with one page's head tags (undefined: the not-found page), rendered once per page and
 * index.html version: at most one entry per known path plus one for "not found".
 */
function renderedPages(
  indexHtml: () => IndexVersion,
  publicUrl: string | undefined,
): (page: PagePath | undefined) => string {
  let cache = { version: undefined as IndexVersion | undefined, pages: new Map<string, string>() };
  return (page) => {
    const version = indexHtml();
    if (version !== cache.version) cache = { version, pages: new Map() };
    const key = page ?? '';
    let html = cache.pages.get(key);
    if (html === undefined) {
      const head = page
        ? pageHead(pages[page], publicUrl && `${publicUrl}${page}`)
        : pageHead(notFoundPage, undefined);
      html = withHead(version.text, head);
      cache.pages.set(key, html);
    }
    return html;
  };
}

/**
 * The tags a page's HTML carries for search engines and link previews: its title and description;
 * public pages add Open Graph and a Twitter summary card (plus og:url and canonical when the address is
 * known), signed-in pages and "not found" add `noindex` instead.
 */
export function pageHead(page: PageMeta, url: string | undefined): string {
  const title = escapeHtml(documentTitle(page.title));
  const description = escapeHtml(page.description);
  const tags = [`<title>${title}</title>`, `<meta name="description" content="${description}" />`];
  if (page.indexing === 'noindex') {
    tags.push('<meta name="robots" content="noindex" />');
    return tags.join('\n    ');
  }
  tags.push(
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${escapeHtml(brandName)}" />`,
    '<meta name="twitter:card" content="summary" />',
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
