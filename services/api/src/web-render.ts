import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './accounts/sessions';

/**
 * The pages the server renders as HTML (headings, copy, prices, the premium codes for sale), so that a
 * visitor sees the page before its JavaScript has loaded, and a crawler reads it without running any.
 */
const serverRenderedPaths: ReadonlySet<string> = new Set([
  '/',
  '/marketplace',
  '/about',
  '/privacy',
  '/terms',
  '/contact',
  '/help',
]);

/** A render that takes longer sends the page without markup (the browser renders it, as without the server's copy). */
const RENDER_BUDGET_MS = 3000;

/** What web/src/entry-server.tsx exports (built to web/dist/server/entry-server.js). */
interface ServerEntry {
  answerCallsWith(transport: (url: string, init: RequestInit) => Promise<Response>): void;
  renderPage(url: string, signal?: AbortSignal): Promise<{ html: string; stateScript: string }>;
}

/**
 * A page's HTML with the server's render of it inside `#root`; undefined (synchronously) when the server
 * does not render this request's page, a promise of the HTML otherwise, which holds the page without
 * markup when the render fails (logged): a visitor always gets the page, never a 500.
 */
export type PageBodyRenderer = (request: FastifyRequest, html: string) => Promise<string> | undefined;

/**
 * Renders the public pages with the web app's server build in `distDir`, loaded on the first such page
 * (and again when it is rebuilt); undefined when there is none (a web build without it, as in tests
 * that serve index.html alone). The page's calls of the API are answered in-process by `app`, as a
 * visitor who is not signed in: a page renders as it does in the browser whatever its loaders ask,
 * and each request renders afresh, so that a change of any data shows on the next load.
 */
export function serverPageRenderer(app: FastifyInstance, distDir: string): PageBodyRenderer | undefined {
  const entryFile = path.join(distDir, 'server', 'entry-server.js');
  const entry = currentEntry(entryFile, (loaded) => loaded.answerCallsWith(inProcessCalls(app)));
  if (!entry) {
    app.log.warn(
      { entryFile },
      'web app built without its server render: public pages render in the browser only',
    );
    return undefined;
  }
  return (request, html) => {
    if (!rendersOnServer(request)) return undefined;
    return withinBudget(
      entry().then((loaded) => loaded.renderPage(request.url, AbortSignal.timeout(RENDER_BUDGET_MS))),
    )
      .then((page) => withRoot(html, page.html, page.stateScript))
      .catch((error: unknown) => {
        request.log.error({ err: error, url: request.url }, 'server render failed: page sent without markup');
        return html;
      });
  };
}

/**
 * A public page asked by a visitor who is not signed in. A session cookie means the browser renders the
 * page (the signed-in shell, or the dashboard at "/"), as a server render as a visitor would flash the
 * visitor's page first.
 */
function rendersOnServer(request: FastifyRequest): boolean {
  const pathname = request.url.split('?', 1)[0] ?? '/';
  if (!serverRenderedPaths.has(pathname)) return false;
  const cookies = request.headers.cookie ?? '';
  return !new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`).test(cookies);
}

/** index.html with the render inside its empty root, and the render's data right after it. */
function withRoot(html: string, markup: string, stateScript: string): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error('index.html has no empty <div id="root"></div>');
  // A replacer function: a `$` in the markup must not be read as a replacement pattern.
  return html.replace(root, () => `<div id="root">${markup}</div>${stateScript}`);
}

function withinBudget<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no render within ${RENDER_BUDGET_MS} ms`)), RENDER_BUDGET_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The server build, imported once per version of its file (a rebuilt web app renders without a
 * restart); undefined when the file is not there.
 */
function currentEntry(
  file: string,
  prepare: (entry: ServerEntry) => void,
): (() => Promise<ServerEntry>) | undefined {
  try {
    statSync(file);
  } catch {
    return undefined;
  }
  let loaded: { mtimeMs: number; entry: Promise<ServerEntry> } | undefined;
  return () => {
    const { mtimeMs } = statSync(file);
    if (loaded?.mtimeMs !== mtimeMs) {
      const entry = import(`${pathToFileURL(file).href}?v=${mtimeMs}`).then((module: ServerEntry) => {
        prepare(module);
        return module;
      });
      loaded = { mtimeMs, entry };
    }
    return loaded.entry;
  };
}

/**
 * Answers the render's calls of the API with the app itself (no socket, no address needed), with no
 * cookie: the page is rendered for a visitor who is not signed in.
 */
function inProcessCalls(app: FastifyInstance) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const method = (init.method ?? 'GET') as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    const answer = await app.inject({
      method,
      url,
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const bodiless = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(bodiless ? null : answer.rawPayload, { status: answer.statusCode, headers });
  };
}
