import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] console noise journey SKIPPED: ${unavailable}`);

/**
 * What a person with the browser's console open would see go wrong: console errors and warnings, requests
 * that failed, and answers of 400 or more (which the browser logs as "Failed to load resource"), except
 * the one the test expects (a 404 page's own document).
 */
function watchNoise(page: Page, expected: (url: string, status: number) => boolean = () => false) {
  const noise: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      noise.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => noise.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A navigation away cancels what the page was still loading: nothing failed.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      noise.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !expected(response.url(), response.status()))
      noise.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return noise;
}

describe.skipIf(unavailable !== undefined)('the browser console on the signed-out pages', () => {
  const stack = browserStackFor();

  it('stays quiet on the landing page, its sections, the marketplace and the informational pages, signed out', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    const noise = watchNoise(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Premium Slugs' }).click();
    await page.waitForURL((url) => url.pathname === '/marketplace');
    await page.getByRole('heading', { level: 1, name: 'Premium Slugs Marketplace' }).waitFor();
    // Each arrives rendered by the server and is hydrated: a mismatch would be reported here.
    for (const path of ['/help', '/about', '/privacy', '/terms', '/contact']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(noise).toEqual([]);
    await context.close();
  });

  it('stays quiet through sign-in to the dashboard', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const other = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(other, { email: 'quiet@example.com', firstName: 'Quinn' });
    await other.close();
    const page = await context.newPage();
    const noise = watchNoise(page);
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('E-mail').fill('quiet@example.com');
    await form.locator('input[type="password"]').fill('a long enough password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Account menu for Quinn' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(noise).toEqual([]);
    await context.close();
  });

  it('stays quiet on a page that does not exist, apart from its own 404', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    const missing = `${stack().app.baseUrl}/no/such/page`;
    const noise = watchNoise(page, (url, status) => url === missing && status === 404);
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForLoadState('networkidle');
    expect(noise.filter((line) => !line.includes('status of 404'))).toEqual([]);
    await context.close();
  });
});
