import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { browserStackFor, signedInPage } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] accessibility of the user pages SKIPPED: ${unavailable}`);

/** Opens a page, waits for what shows it is there, and returns what axe-core finds serious on it. */
async function violationsOn(page: Page, path: string, shown: (page: Page) => Promise<void>) {
  await page.goto(path);
  await shown(page);
  return seriousAccessibilityViolations(page);
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name }).first().waitFor();

describe.skipIf(unavailable !== undefined)('the user pages for axe-core', () => {
  const stack = browserStackFor();

  it('finds no serious problem on the signed-out pages: landing, help, marketplace', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    const found = {
      '/': await violationsOn(page, '/', heading(/./)),
      '/help': await violationsOn(page, '/help', heading(/./)),
      '/marketplace': await violationsOn(page, '/marketplace', heading('Premium Slugs Marketplace')),
    };
    expect(found).toEqual({ '/': [], '/help': [], '/marketplace': [] });
    await context.close();
  });

  it('finds no serious problem signed in: dashboard, profile, subscribe, marketplace, help, the Support dialog', async () => {
    const { context, page } = await signedInPage(stack(), { email: 'axe@example.com', firstName: 'Ally' });
    const found = {
      '/home': await violationsOn(page, '/home', heading(/Ally/)),
      '/profile': await violationsOn(page, '/profile', heading('Profile Settings')),
      '/subscribe': await violationsOn(page, '/subscribe', heading(/./)),
      '/marketplace': await violationsOn(page, '/marketplace', heading('Premium Slugs Marketplace')),
      '/help': await violationsOn(page, '/help', heading(/./)),
      'Support dialog': await violationsOn(page, '/home?support=open', (shown) =>
        shown.getByRole('dialog', { name: 'Support Center' }).waitFor(),
      ),
    };
    // axe calls a second banner only "moderate": the open dialog's title bar must not be one.
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(found).toEqual({
      '/home': [],
      '/profile': [],
      '/subscribe': [],
      '/marketplace': [],
      '/help': [],
      'Support dialog': [],
    });
    await context.close();
  });
});
