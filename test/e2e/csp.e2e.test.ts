import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { type BrowserStack, registerThroughApi, startBrowserStack, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] content security policy checks SKIPPED: ${unavailable}`);

/**
 * Another site on the loopback: `localhost` is another site than the app's `127.0.0.1` (Sec-Fetch-Site:
 * cross-site). It serves a page that frames the app's dashboard next to a page of its own, and a page
 * with a link to the app's sign-out.
 */
async function startForeignSite(appUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const pages: Record<string, string> = {
    '/frame.html': `<!doctype html><title>Framing</title>
      <iframe id="own" src="/inner.html"></iframe>
      <iframe id="app" src="${appUrl}/home"></iframe>`,
    '/inner.html': '<!doctype html><title>Inner</title><p>A page of this site</p>',
    '/links.html': `<!doctype html><title>Links</title><a href="${appUrl}/api/logout">Sign out of Sniplink</a>`,
  };
  const server = http.createServer((request, response) => {
    const page = pages[request.url ?? ''];
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a `securitypolicyviolation` event says (the DOM's SecurityPolicyViolationEvent, in part). */
interface PolicyViolation {
  effectiveDirective: string;
  blockedURI: string;
  documentURI: string;
  sourceFile: string;
  lineNumber: number;
}

/**
 * Everything that went wrong in the context's pages: console errors (Chromium logs each refused load
 * there too), uncaught exceptions, and each `securitypolicyviolation` event, reported by a listener put
 * in every document before its own scripts run.
 */
async function problemsOf(context: BrowserContext): Promise<string[]> {
  const problems: string[] = [];
  await context.exposeBinding('reportPolicyViolation', (_source, violation: string) => {
    problems.push(`policy violation: ${violation}`);
  });
  await context.addInitScript(() => {
    // The page's globals, typed here: this file is compiled without the DOM's types.
    const page = globalThis as unknown as {
      document: { addEventListener(type: string, listener: (event: PolicyViolation) => void): void };
      reportPolicyViolation(text: string): void;
    };
    page.document.addEventListener('securitypolicyviolation', (event) => {
      page.reportPolicyViolation(
        `${event.effectiveDirective} refused ${event.blockedURI} in ${event.documentURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  };
  context.on('page', watch);
  return problems;
}

describe.skipIf(unavailable !== undefined)('the pages under their content security policy', () => {
  let stack: BrowserStack;
  let foreign: Awaited<ReturnType<typeof startForeignSite>>;

  beforeAll(async () => {
    stack = await startBrowserStack();
    foreign = await startForeignSite(stack.app.baseUrl);
  });

  afterAll(async () => {
    await foreign?.close();
    await stack?.stop();
  });

  it('landing page, sign-up, dashboard (QR code, analytics), profile and API docs: no error, no violation', async () => {
    const context = await newDesktopContext(stack.browser, stack.app.baseUrl);
    const problems = await problemsOf(context);
    const page = await context.newPage();

    await page.goto('/');
    const demo = page.locator('#demo');
    await demo.getByLabel('Long URL').fill('https://example.com/demo/under-policy');
    await demo.getByRole('button', { name: 'Shorten' }).click();
    await demo.getByTestId('demo-short-url').waitFor();

    await page.goto('/login');
    await page.getByRole('tab', { name: 'Create account' }).click();
    const signUp = page.getByRole('form', { name: 'Create account' });
    await signUp.getByLabel('E-mail').fill('policy.checker@example.com');
    await signUp.locator('input[type="password"]').fill('a long enough password');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: /^Account menu for/ }).waitFor();

    await page.goto('/home');
    await page.getByRole('heading', { name: 'Your Links', exact: true }).waitFor();
    const create = page.getByRole('form', { name: 'Create New Short Link' });
    const target = 'https://example.com/spring/menu';
    await create.getByLabel('Long URL').fill(target);
    await create.getByRole('button', { name: 'Shorten' }).click();
    const card = page.getByRole('article').filter({ hasText: target });
    const code = ((await card.getByRole('link').first().textContent()) ?? '').split('/s/')[1] ?? '';
    const qrDownload = page.waitForEvent('download');
    await card.getByRole('button', { name: `QR code for ${code}` }).click();
    expect((await qrDownload).suggestedFilename()).toBe(`${code}.png`);
    await toastText(page, 'QR code downloaded successfully!');
    await card.getByRole('button', { name: `Analytics for ${code}` }).click();
    await card.getByRole('heading', { name: 'Devices' }).waitFor();

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor();

    // The API's docs page (Swagger UI) renders the document under the same policy.
    await page.goto('/api/docs');
    await page.getByRole('heading', { name: /Sniplink API/ }).waitFor();
    await page.getByText('/api/links/check-availability/{code}').waitFor();

    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('a page of another site cannot frame the signed-in dashboard', async () => {
    const context = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(context, { email: 'framed@example.com', firstName: 'Framed' });
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => refusals.push(message.text()));
    await page.goto(`${foreign.url}/frame.html`, { waitUntil: 'load' });
    const frameOf = async (id: string) => {
      const frame = await (await page.$(`#${id}`))?.contentFrame();
      if (!frame) throw new Error(`no frame #${id}`);
      return frame;
    };
    // The frame of the site's own page shows it: framing works on that page...
    await (await frameOf('own')).getByText('A page of this site').waitFor();
    // ...but the app's page is refused: the frame holds Chromium's error page, none of the app.
    const app = await frameOf('app');
    expect(app.url()).not.toContain(stack.app.baseUrl);
    expect(await app.locator('#root').count()).toBe(0);
    expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'/);
    await context.close();
  });

  it('a link on another site to /api/logout asks "Sign out?"; its button signs out', async () => {
    const context = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(context, { email: 'linked@example.com' });
    const problems = await problemsOf(context);
    const page = await context.newPage();
    await page.goto(`${foreign.url}/links.html`);
    await page.getByRole('link', { name: 'Sign out of Sniplink' }).click();
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/api/logout');
    expect((await context.request.get('/api/auth/user')).status()).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === stack.app.baseUrl && url.pathname === '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();
    expect((await context.request.get('/api/auth/user')).status()).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });
});
