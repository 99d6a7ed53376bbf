import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Paths the web app renders as real pages; any other path gets its not-found page with status 404. */
const PAGE_PATHS = new Set([
  '/',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/home',
  '/profile',
  '/onboarding',
  '/about',
  '/privacy',
  '/terms',
  '/contact',
  '/help',
]);

export type PageRenderer = (pathname: string, reply: FastifyReply) => FastifyReply;

/**
 * Serves the built web app's hashed assets (cached for a year) and returns the page renderer for the
 * not-found handler; undefined when the web app is not built.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
): Promise<PageRenderer | undefined> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built (run `npm run build:web`); serving the API only');
    return undefined;
  }
  const indexHtml = currentFile(indexFile);
  await app.register(fastifyStatic, {
    root: path.join(distDir, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
  });
  return (pathname, reply) =>
    reply
      .code(PAGE_PATHS.has(pathname) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml());
}

/**
 * The file's text, read again when it changes: a rebuilt web app (new hashed asset names) is served
 * without restarting the server. One stat per page request; assets are not affected.
 */
function currentFile(file: string): () => string {
  let cached = { mtimeMs: -1, text: '' };
  return () => {
    const { mtimeMs } = statSync(file);
    if (mtimeMs !== cached.mtimeMs) cached = { mtimeMs, text: readFileSync(file, 'utf8') };
    return cached.text;
  };
}
