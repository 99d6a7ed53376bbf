import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';

/** The web app's own index.html (the built one differs only by its script and style tags). */
const webIndexHtml = path.resolve(import.meta.dirname, '../../../web/index.html');

/**
 * Stand-ins for the web app's server build (web/dist/server/entry-server.js), which the real pages'
 * journeys use (test/e2e/server-render.e2e.test.ts): here, what the server does around it.
 */
const entries = {
  /** Renders the address it was asked and what the app answered it in-process for /healthz. */
  working: `
    let call;
    export function answerCallsWith(transport) { call = transport; }
    export async function renderPage(url) {
      const answer = await call('/healthz', {});
      const body = await answer.json();
      return {
        html: '<main><h1>Rendered ' + url + '</h1><p>health $& ' + answer.status + ' ' + body.status + '</p></main>',
        stateScript: '<script type="application/json" id="server-state">{}</script>',
      };
    }`,
  failing: `
    export function answerCallsWith() {}
    export async function renderPage(url) { throw new Error('no render of ' + url); }`,
  second: `
    export function answerCallsWith() {}
    export async function renderPage() { return { html: '<h1>Second build</h1>', stateScript: '' }; }`,
};

/** The API serving index.html and a server build of `entry`; its log lines are kept, parsed. */
function servingServerBuild(entry: string) {
  let served: { app: FastifyInstance; distDir: string; logged: Record<string, unknown>[] } | undefined;
  beforeAll(async () => {
    const distDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-web-render-'));
    await mkdir(path.join(distDir, 'assets'));
    await mkdir(path.join(distDir, 'server'));
    await copyFile(webIndexHtml, path.join(distDir, 'index.html'));
    await writeFile(path.join(distDir, 'server', 'entry-server.js'), entry);
    const logged: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const app = await buildApp({ log, webDistDir: distDir, allowedOrigins: [], readiness: {} });
    served = { app, distDir, logged };
  });
  afterAll(async () => {
    await served?.app.close();
    if (served) await rm(served.distDir, { recursive: true, force: true });
  });
  return () => {
    if (!served) throw new Error('servingServerBuild: its beforeAll has not run yet');
    return served;
  };
}

/** The root and what follows it, up to the app's own script (in the body of index.html as written). */
const rootOf = (html: string) =>
  html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="module"')).trim();

describe('a public page rendered on the server', () => {
  const web = servingServerBuild(entries.working);

  it("puts the render inside the root and its data right after it, the API's answers taken in-process", async () => {
    const response = await web().app.inject('/about?from=test');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(rootOf(response.body)).toBe(
      '<div id="root"><main><h1>Rendered /about?from=test</h1><p>health $& 200 ok</p></main></div>' +
        '<script type="application/json" id="server-state">{}</script>',
    );
    // The head is still the page's own.
    expect(response.body).toContain('<title>About Sniplink | Sniplink</title>');
  });

  it('leaves the signed-in pages, a visitor with a session cookie and "not found" to the browser', async () => {
    for (const [url, cookie, status] of [
      ['/profile', undefined, 200],
      ['/', 'theme=x; sid=abc', 200],
      ['/no/such/page', undefined, 404],
    ] as const) {
      const response = await web().app.inject({ url, headers: cookie ? { cookie } : {} });
      expect(response.statusCode, url).toBe(status);
      expect(rootOf(response.body), url).toBe('<div id="root"></div>');
    }
  });
});

describe('a render that fails', () => {
  const web = servingServerBuild(entries.failing);

  it('sends the page without markup, never an error, and logs why', async () => {
    const response = await web().app.inject('/marketplace');
    expect(response.statusCode).toBe(200);
    expect(rootOf(response.body)).toBe('<div id="root"></div>');
    await expect
      .poll(() => web().logged.find((line) => line.msg === 'server render failed: page sent without markup'))
      .toMatchObject({ level: 50, url: '/marketplace', err: { message: 'no render of /marketplace' } });
  });
});

describe('a rebuilt web app', () => {
  const web = servingServerBuild(entries.working);

  it('renders with the new server build at once, without a restart', async () => {
    expect(rootOf((await web().app.inject('/help')).body)).toContain('Rendered /help');
    const entryFile = path.join(web().distDir, 'server', 'entry-server.js');
    await writeFile(entryFile, entries.second);
    const later = new Date(Date.now() + 5_000);
    await utimes(entryFile, later, later);
    expect(rootOf((await web().app.inject('/help')).body)).toContain('<h1>Second build</h1>');
  });
});
