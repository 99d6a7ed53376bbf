import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The web app's own index.html (the built one differs only by its script and style tags). */
const webIndexHtml = path.resolve(import.meta.dirname, '../../web/index.html');

/** A web build of index.html alone, in a temporary folder of its own (the caller removes it). */
export async function webBuildOfIndexHtml(): Promise<string> {
  const distDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-web-'));
  await mkdir(path.join(distDir, 'assets'));
  await copyFile(webIndexHtml, path.join(distDir, 'index.html'));
  return distDir;
}

const decode = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** What a crawler without JavaScript reads in a page's head: each tag's values, decoded, in order. */
export function pageHeadOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const meta = (attribute: 'name' | 'property', key: string) =>
    [...head.matchAll(new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`, 'g'))].map((match) =>
      decode(match[1] ?? ''),
    );
  return {
    titles: [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => decode(match[1] ?? '')),
    descriptions: meta('name', 'description'),
    keywords: meta('name', 'keywords'),
    robots: meta('name', 'robots'),
    og: (key: string) => meta('property', `og:${key}`),
    twitter: (key: string) => meta('name', `twitter:${key}`),
    canonical: [...head.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((match) =>
      decode(match[1] ?? ''),
    ),
  };
}
