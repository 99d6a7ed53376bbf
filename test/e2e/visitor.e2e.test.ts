import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserUnavailableReason,
  launchChromium,
  newDesktopContext,
  seriousAccessibilityViolations,
} from './browser';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] visitor journey SKIPPED: ${unavailable}`);

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The demo's target (never loaded). */
const target = 'https://example.com/spring-sale?utm_source=e2e';

describe.skipIf(unavailable !== undefined)('a visitor in a real browser', () => {
  let database: TestDatabase;
  let app: AppProcess;
  let browser: Browser;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`);
    database = await createTestDatabase({ migrate: false });
    app = await startAppProcess({ DATABASE_URL: database.connectionString });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await database?.drop();
  });

  it('finds no serious or critical accessibility problem on the landing page', async () => {
    const context = await newDesktopContext(browser, app.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Try Sniplink Free' }).waitFor();
    expect(await page.title()).toBe('Professional URL Shortening | Sniplink');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it('shortens a URL in the demo, follows the short link, then signs up and lands signed in', async () => {
    const context = await newDesktopContext(browser, app.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    const demo = page.locator('#demo');

    // Checked in the browser before any call, and said on the field: a scheme other than http(s).
    await demo.getByLabel('Long URL').fill('ftp://example.com');
    await demo.getByRole('button', { name: 'Shorten' }).click();
    await demo.getByText('Only http and https URLs can be shortened').waitFor();
    expect(await demo.getByLabel('Long URL').getAttribute('aria-invalid')).toBe('true');

    await demo.getByLabel('Long URL').fill(target);
    await demo.getByRole('button', { name: 'Shorten' }).click();
    const shortUrl = (await demo.getByTestId('demo-short-url').textContent()) ?? '';
    expect(shortUrl).toMatch(/\/s\/[a-z0-9]{7}$/);
    await demo.getByText('Analytics ready').waitFor();
    await demo.getByRole('button', { name: 'Clear' }).waitFor();

    // The server answers the short link with a redirect to the target...
    const redirect = await page.request.get(shortUrl, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers().location).toBe(target);

    // ...and the browser follows it there. The target is never loaded: the machine may be offline, and
    // Chromium does not let page.route answer a redirect's target; the request for it is the proof.
    const tab = await context.newPage();
    const targetRequest = tab.waitForRequest(target);
    await tab.goto(shortUrl).catch(() => undefined);
    expect((await targetRequest).redirectedFrom()?.url()).toBe(shortUrl);
    await tab.close();

    // Another link, then sign up from the demo's call to action (a navigation to /api/login).
    await demo.getByLabel('Long URL').fill('https://example.org/menu');
    await demo.getByRole('button', { name: 'Shorten' }).click();
    await demo.getByText('Your other demo links').waitFor();
    await demo.getByRole('link', { name: 'Start Free Account' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    // "Start Free Account" opens the Create account tab, not Sign in.
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Create account');
    const form = page.getByRole('form', { name: 'Create account' });
    await form.getByLabel('First name').fill('Ada');
    await form.getByLabel('E-mail').fill('ada@example.com');
    await form.locator('input[type="password"]').fill('a long enough password');
    await form.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu for Ada' }).click();
    await page.getByText('ada@example.com').waitFor();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();

    // Signing up claimed both demo links into the account, and both visits of the first one (the checked
    // redirect and the browser's, both with a desktop Chrome's user agent) counted as clicks.
    await expect
      .poll(
        async () => {
          const links = (await (await page.request.get('/api/links')).json()) as {
            shortUrl: string;
            clickCount: number;
          }[];
          return links.map((link) => [
            link.shortUrl.slice(link.shortUrl.lastIndexOf('/s/')),
            link.clickCount,
          ]);
        },
        { timeout: 10_000 },
      )
      .toContainEqual([shortUrl.slice(shortUrl.lastIndexOf('/s/')), 2]);
    await context.close();
  }, 60_000);
});
