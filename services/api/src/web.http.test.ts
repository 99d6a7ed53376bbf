import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { documentTitle, notFoundPage, type PagePath, pages } from '@sniplink/contracts/pages';
import { createLogger } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { escapeHtml, pageHead } from './web';

/** The web app's own index.html (the built one differs only by its script and style tags). */
const webIndexHtml = path.resolve(import.meta.dirname, '../../../web/index.html');

const publicPaths = [
  '/',
  '/about',
  '/privacy',
  '/terms',
  '/contact',
  '/help',
  '/login',
  '/forgot-password',
  '/subscribe',
] as const;
/** Pages no search result should lead to: the signed-in ones, and the reset page (its links carry tokens). */
const signedInPaths = ['/home', '/profile', '/onboarding', '/reset-password'] as const;

/** What a crawler without JavaScript reads in a page's head. */
function headOf(html: string) {
  const decode = (text: string) =>
    text
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
  const head = html.slice(0, html.indexOf('</head>'));
  const meta = (attribute: 'name' | 'property', key: string) => {
    const found = [...head.matchAll(new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`, 'g'))];
    return found.map((match) => decode(match[1] ?? ''));
  };
  return {
    titles: [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => decode(match[1] ?? '')),
    descriptions: meta('name', 'description'),
    robots: meta('name', 'robots'),
    og: (key: string) => meta('property', `og:${key}`),
    twitterCard: meta('name', 'twitter:card'),
    canonical: [...head.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((match) => match[1]),
  };
}

async function distWithIndexHtml(): Promise<string> {
  const distDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-web-'));
  await mkdir(path.join(distDir, 'assets'));
  await copyFile(webIndexHtml, path.join(distDir, 'index.html'));
  return distDir;
}

/**
 * The API serving a web build that holds index.html alone, in a folder of its own that `prepare` may add
 * to: registers the describe block's beforeAll, which builds both, and afterAll, which removes them.
 */
function servingWebBuild(
  options: { publicUrl?: string; allowedOrigins?: string[] } = {},
  prepare: (distDir: string) => Promise<void> = async () => {},
) {
  let served: { app: FastifyInstance; distDir: string } | undefined;
  beforeAll(async () => {
    const distDir = await distWithIndexHtml();
    await prepare(distDir);
    const app = await buildApp({
      log: createLogger('silent'),
      webDistDir: distDir,
      allowedOrigins: ['http://localhost:3000'],
      readiness: {},
      ...options,
    });
    served = { app, distDir };
  });
  afterAll(async () => {
    await served?.app.close();
    if (served) await rm(served.distDir, { recursive: true, force: true });
  });
  return () => {
    if (!served) throw new Error('servingWebBuild: its beforeAll has not run yet');
    return served;
  };
}

describe('web pages as a crawler without JavaScript reads them', () => {
  const web = servingWebBuild();

  it.each(publicPaths)(
    '%s carries its title, description, Open Graph and Twitter card tags',
    async (pathname) => {
      const page = pages[pathname];
      const response = await web().app.inject(pathname);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const head = headOf(response.body);
      expect(head.titles).toEqual([documentTitle(page.title)]);
      expect(head.descriptions).toEqual([page.description]);
      expect(head.og('title')).toEqual([documentTitle(page.title)]);
      expect(head.og('description')).toEqual([page.description]);
      expect(head.og('type')).toEqual(['website']);
      expect(head.og('site_name')).toEqual(['Sniplink']);
      expect(head.twitterCard).toEqual(['summary']);
      expect(head.robots).toEqual([]);
      // No public address is configured here: no og:url, no canonical link.
      expect(head.og('url')).toEqual([]);
      expect(head.canonical).toEqual([]);
      // The rest of index.html is untouched.
      expect(response.body).toContain('<div id="root"></div>');
    },
  );

  it.each(signedInPaths)('%s carries its title and noindex', async (pathname) => {
    const response = await web().app.inject(pathname);
    expect(response.statusCode).toBe(200);
    const head = headOf(response.body);
    expect(head.titles).toEqual([documentTitle(pages[pathname].title)]);
    expect(head.descriptions).toEqual([pages[pathname].description]);
    expect(head.robots).toEqual(['noindex']);
    expect(head.og('title')).toEqual([]);
  });

  it('answers an unknown path with 404, the not-found title and noindex', async () => {
    const response = await web().app.inject('/no/such/page?x=1');
    expect(response.statusCode).toBe(404);
    const head = headOf(response.body);
    expect(head.titles).toEqual(['Page Not Found | Sniplink']);
    expect(head.robots).toEqual(['noindex']);
    expect(head.descriptions).toEqual([notFoundPage.description]);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('matches paths exactly: a trailing slash or an inherited property name is not a page', async () => {
    for (const pathname of ['/about/', '/constructor', '/__proto__', '/hasOwnProperty']) {
      const response = await web().app.inject(pathname);
      expect(response.statusCode, pathname).toBe(404);
      expect(headOf(response.body).titles, pathname).toEqual(['Page Not Found | Sniplink']);
    }
  });

  it('serves a rebuilt index.html at once, with the page tags still in it', async () => {
    const indexFile = path.join(web().distDir, 'index.html');
    const before = await web().app.inject('/about');
    const rebuilt = (await readFile(webIndexHtml, 'utf8')).replace(
      '</head>',
      '<script type="module" src="/assets/index-rebuilt.js"></script></head>',
    );
    await writeFile(indexFile, rebuilt);
    const later = new Date(Date.now() + 5_000);
    await utimes(indexFile, later, later);

    const after = await web().app.inject('/about');
    expect(before.body).not.toContain('index-rebuilt.js');
    expect(after.body).toContain('index-rebuilt.js');
    expect(headOf(after.body).titles).toEqual(['About Sniplink | Sniplink']);
    expect(headOf((await web().app.inject('/nowhere')).body).titles).toEqual(['Page Not Found | Sniplink']);
  });
});

describe('web pages with a public address configured', () => {
  // As the app builds it when PUBLIC_URL is set (composition.ts, startApp, passes config.canonicalUrl).
  const web = servingWebBuild({
    publicUrl: 'https://snip.example.com/',
    allowedOrigins: ['https://snip.example.com'],
  });

  it.each([
    ['/', 'https://snip.example.com/'],
    ['/help', 'https://snip.example.com/help'],
  ] satisfies [PagePath, string][])(
    '%s names its address in og:url and a canonical link',
    async (pathname, url) => {
      const head = headOf((await web().app.inject(pathname)).body);
      expect(head.og('url')).toEqual([url]);
      expect(head.canonical).toEqual([url]);
    },
  );

  it('names no address for signed-in pages or the not-found page', async () => {
    for (const pathname of ['/home', '/missing']) {
      const head = headOf((await web().app.inject(pathname)).body);
      expect(head.og('url'), pathname).toEqual([]);
      expect(head.canonical, pathname).toEqual([]);
    }
  });
});

describe("the web app's assets as a browser fetches them", () => {
  const script = `export const greeting = ${JSON.stringify('hello '.repeat(200))};\n`;
  const web = servingWebBuild({}, async (distDir) => {
    // As the build writes them: each asset with its brotli and gzip copies beside it.
    const asset = path.join(distDir, 'assets', 'index-Bx7hash1.js');
    await writeFile(asset, script);
    await writeFile(`${asset}.br`, brotliCompressSync(script));
    await writeFile(`${asset}.gz`, gzipSync(script));
    // Too small to gain from compressing: the build leaves it alone.
    await writeFile(path.join(distDir, 'assets', 'tiny-Cq2hash2.js'), 'export {};\n');
  });

  const fetchAsset = (url: string, acceptEncoding?: string) =>
    web().app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it.each([
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['br', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ] as const)('accepting %s: answers %s, cached for a year', async (accepted, encoding, decode) => {
    const response = await fetchAsset('/assets/index-Bx7hash1.js', accepted);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/javascript; charset=utf-8/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(script.length);
    expect(decode(response.rawPayload).toString()).toBe(script);
  });

  it.each([undefined, 'identity', 'deflate'])('accepting %s: answers the plain file', async (accepted) => {
    const response = await fetchAsset('/assets/index-Bx7hash1.js', accepted);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.body).toBe(script);
  });

  it('answers the plain file when the build wrote no compressed copy', async () => {
    const response = await fetchAsset('/assets/tiny-Cq2hash2.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('export {};\n');
  });

  it('answers 404 for an asset that is not there, whatever the browser accepts', async () => {
    for (const accepted of ['br', 'gzip', undefined]) {
      expect((await fetchAsset('/assets/index-gone.js', accepted)).statusCode, accepted).toBe(404);
    }
  });

  it('has the browser ask again for a page: its HTML names the current assets', async () => {
    for (const pathname of ['/', '/about', '/nowhere']) {
      const response = await fetchAsset(pathname, 'br, gzip');
      expect(response.headers['cache-control'], pathname).toBe('no-cache');
      expect(response.headers['content-type'], pathname).toBe('text/html; charset=utf-8');
    }
  });
});

describe('page head tags', () => {
  it('escapes text for elements and double-quoted attributes', () => {
    expect(escapeHtml(`Tom & "Jerry's" <b>`)).toBe('Tom &amp; &quot;Jerry&#39;s&quot; &lt;b&gt;');
    const head = pageHead(
      { title: '</title><script>alert(1)</script>', description: '" onload="x', indexing: 'index' },
      'https://x.example/"><script>',
    );
    expect(head).not.toMatch(/<script|" onload|"><script/);
    expect(head).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; | Sniplink</title>');
    expect(head).toContain('content="&quot; onload=&quot;x"');
  });
});
