import { until } from '@sniplink/test-support/until';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] server-rendered pages SKIPPED: ${unavailable}`);

const ADMIN = 'render-admin@example.com';

/** What a crawler reads in a page without running its JavaScript: the text inside `#root`, in one line. */
function rootText(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.lastIndexOf('</body>');
  return (
    html
      .slice(start, end)
      // React's markers between two pieces of text (`<!-- -->`) and around waiting parts are no text.
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(style|script|title)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replaceAll('&#x27;', "'")
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The main heading as served, before any script runs. */
function servedHeading(html: string): string | undefined {
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  return heading === undefined ? undefined : rootText(`<div id="root">${heading}</body>`);
}

/** Each public page: its main heading and a sentence of its copy, as the visitor reads them. */
const publicPages = [
  {
    path: '/',
    heading: 'Professional URL Shortening',
    copy: ['Simple pricing', 'Free $0', '$2 /month', 'or $20/year'],
  },
  { path: '/about', heading: 'About Sniplink', copy: ['Who it is for', 'Self-hostable'] },
  { path: '/privacy', heading: 'Privacy', copy: ['The IP address itself is never stored'] },
  { path: '/terms', heading: 'Terms of Use', copy: ['The short version of the rules'] },
  { path: '/contact', heading: 'Contact', copy: ['Open the Support Center from your dashboard'] },
  { path: '/help', heading: 'Help', copy: ['How do I shorten a link?'] },
  { path: '/marketplace', heading: 'Premium Slugs Marketplace', copy: ['No premium slugs yet'] },
];

/**
 * What the browser reported while the page hydrated: console errors and warnings (a hydration mismatch
 * is one, from React) and uncaught errors.
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      errors.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return errors;
}

/**
 * Opens `path` with the app's script held back, marks the main heading the server sent, then lets the
 * script run: once the app has taken over, the marked heading is still the one on screen when React
 * hydrated the server's markup, and gone when it threw it away and drew the page again (a flash).
 */
async function openHydrated(page: Page, path: string): Promise<{ heldHeading: string }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(path, { waitUntil: 'commit' });
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor({ state: 'attached' });
  const heldHeading = await heading.evaluate((element) => {
    element.setAttribute('data-served-by-server', 'yes');
    return element.textContent ?? '';
  });
  release();
  // React keeps its own properties on each element it has taken over: the heading on screen has them
  // once the app has hydrated (or drawn the page anew).
  await expect
    .poll(
      () =>
        page
          .locator('h1')
          .evaluate((onScreen) => Object.keys(onScreen).some((key) => key.startsWith('__reactFiber$'))),
      { timeout: 10_000 },
    )
    .toBe(true);
  await page.waitForLoadState('networkidle');
  return { heldHeading };
}

const markedHeadingCount = (page: Page) => page.locator('h1[data-served-by-server="yes"]').count();

describe.skipIf(unavailable !== undefined)('the public pages, rendered on the server', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN });
  const fetchPage = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${stack().app.baseUrl}${path}`, { headers });
    return { status: response.status, html: await response.text() };
  };

  it('arrive as HTML with their heading and copy, read without any JavaScript', async () => {
    for (const { path, heading, copy } of publicPages) {
      const { status, html } = await fetchPage(path);
      expect(status, path).toBe(200);
      expect(servedHeading(html), path).toBe(heading);
      const text = rootText(html);
      for (const sentence of copy) expect(text, path).toContain(sentence);
    }
  });

  it('show a change of their data on the next load: new codes on the marketplace, a new allowance in the pricing, published copy', async () => {
    const admin = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(admin, { email: ADMIN });
    expect((await admin.request.post('/api/admin/premium-slugs/seed')).status()).toBe(200);
    const marketplace = await until(
      async () => rootText((await fetchPage('/marketplace')).html),
      (text) => !text.includes('No premium slugs yet'),
    );
    for (const code of ['shop', 'deals', 'vip']) expect(marketplace).toMatch(new RegExp(`\\b${code}\\b`));

    expect(rootText((await fetchPage('/')).html)).toContain('Free $0 5 links at a time');
    const set = await admin.request.post('/api/admin/config', {
      data: { key: 'links.free_limit', value: '7' },
    });
    expect(set.status()).toBe(201);
    expect(rootText((await fetchPage('/')).html)).toContain('Free $0 7 links at a time');
    expect((await admin.request.delete('/api/admin/config/links.free_limit')).status()).toBe(200);

    const copy = {
      title: 'House Rules',
      content: 'Be **kind** to the people who open your links.\n\n<img src=x onerror=alert(1)>',
    };
    expect((await admin.request.put('/api/admin/content/terms', { data: copy })).status()).toBe(200);
    expect((await admin.request.post('/api/admin/content/terms/publish')).status()).toBe(200);
    const terms = await until(
      async () => (await fetchPage('/terms')).html,
      (html) => servedHeading(html) === 'House Rules',
    );
    expect(servedHeading(terms)).toBe('House Rules');
    expect(rootText(terms)).toContain('Be kind to the people who open your links.');
    // Raw HTML in the copy is served as text, never as markup.
    expect(terms).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(terms).not.toContain('<img src=x');
    await admin.close();
  });

  it('carry the data they were rendered from beside the root, as data, not as a script that runs', async () => {
    const { html } = await fetchPage('/about');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    const inline = scripts.filter(([, attributes, body]) => !/\bsrc=/.test(attributes ?? '') && body);
    expect(inline.map(([, attributes]) => attributes?.trim())).toEqual([
      'type="application/json" id="server-state"',
    ]);
    expect(html).toMatch(/<\/div><script type="application\/json" id="server-state">/);
  });

  it('leave a page that does not exist to the not-found page, and a signed-in browser to the app', async () => {
    const missing = await fetchPage('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<div id="root"></div>');

    // A session cookie (valid or not) means the app draws the page: the signed-in shell, or the
    // dashboard at "/", never a visitor's page first.
    const signedIn = await fetchPage('/', { cookie: 'sid=some-session' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.html).toContain('<div id="root"></div>');
  });

  it('read the landing headline and pricing in a browser with JavaScript disabled', async () => {
    const context = await stack().browser.newContext({
      baseURL: stack().app.baseUrl,
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Professional URL Shortening');
    const pricing = page.locator('#pricing');
    await pricing.getByRole('heading', { name: 'Simple pricing' }).waitFor();
    await pricing.getByRole('heading', { name: 'Free', level: 3 }).waitFor();
    await pricing.getByRole('heading', { name: 'Pro', level: 3 }).waitFor();
    const said = (await pricing.innerText()).replace(/\s+/g, ' ');
    expect(said).toContain('$0');
    expect(said).toContain('$2 /month');
    expect(said).toContain('or $20/year');
    await context.close();
  });

  it('hydrate in the browser: the served heading stays on screen, nothing is reported, and the page works', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);

    const landing = await context.newPage();
    const landingErrors = watchErrors(landing);
    expect((await openHydrated(landing, '/')).heldHeading).toBe('Professional URL Shortening');
    expect(await markedHeadingCount(landing)).toBe(1);
    // The app's router answers the top bar's link: the page changes without a new document.
    await landing.evaluate(() => {
      (globalThis as { sameDocument?: boolean }).sameDocument = true;
    });
    await landing
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Premium Slugs' })
      .click();
    await landing.getByRole('heading', { level: 1, name: 'Premium Slugs Marketplace' }).waitFor();
    expect(await landing.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(landingErrors).toEqual([]);

    const marketplace = await context.newPage();
    const marketplaceErrors = watchErrors(marketplace);
    expect((await openHydrated(marketplace, '/marketplace')).heldHeading).toBe('Premium Slugs Marketplace');
    expect(await markedHeadingCount(marketplace)).toBe(1);
    // The codes the server listed, filtered by the page's own search box and its "Clear filters" button.
    const cards = marketplace.getByRole('article');
    const listed = await cards.count();
    expect(listed).toBeGreaterThan(0);
    await marketplace.getByRole('textbox', { name: 'Search premium slugs' }).fill('no-slug-is-called-this');
    await marketplace.getByText('No premium slugs match.').waitFor();
    await marketplace.getByRole('button', { name: 'Clear filters' }).click();
    await cards.first().waitFor();
    expect(await cards.count()).toBe(listed);
    expect(marketplaceErrors).toEqual([]);
    await context.close();
  });
});
