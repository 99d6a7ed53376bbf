import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, registerThroughApi, startBrowserStack, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] page copy journey SKIPPED: ${unavailable}`);

const ADMIN = 'copy.admin@example.com';

const COPY = [
  '## What we keep',
  '',
  'Only the **country** of a visitor, never the address.',
  '',
  '- one cookie while you are signed in',
  '- [write to us](/contact)',
  '',
  '<img src=x onerror="document.title=\'pwned\'">',
].join('\n');

/** An admin writes the privacy notice in the console, previews and publishes it; a visitor reads it. */
describe.skipIf(unavailable !== undefined)('page copy: from the console to /privacy', () => {
  let stack: BrowserStack;
  let admin: BrowserContext;
  let visitor: BrowserContext;

  beforeAll(async () => {
    stack = await startBrowserStack({ ADMIN_EMAILS: ADMIN });
    admin = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(admin, { email: ADMIN, firstName: 'Ada' });
    visitor = await newDesktopContext(stack.browser, stack.app.baseUrl);
  });

  afterAll(async () => {
    await admin?.close();
    await visitor?.close();
    await stack?.stop();
  });

  it('keeps the built-in notice until the admin publishes, then shows the published copy to a signed-out visitor', async () => {
    const reader = await visitor.newPage();
    await reader.goto('/privacy');
    await reader.getByRole('heading', { name: 'People who open a short link' }).waitFor();

    const page = await admin.newPage();
    // The privacy page's SEO editor holds its copy editor.
    await page.goto('/admin?tab=seo&seoPage=privacy');
    await page.getByRole('dialog').getByRole('heading', { name: 'Update Page Copy' }).waitFor();
    // Nothing written yet: nothing to publish.
    expect(await page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true);

    await page.getByRole('textbox', { name: 'Title' }).fill('Our privacy promise');
    await page.getByRole('textbox', { name: 'Content' }).fill(COPY);
    const statistics = page.getByLabel('Statistics');
    await statistics.getByText('1 min read').waitFor();
    expect(await statistics.innerText()).toMatch(/\d+ words\s+\d+ characters\s+1 min read/);

    // Preview shows the markdown as the page will.
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('tabpanel', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Our privacy promise', level: 1 }).waitFor();
    await preview.getByRole('heading', { name: 'What we keep', level: 2 }).waitFor();
    expect(await preview.locator('strong').innerText()).toBe('country');
    await preview.getByRole('link', { name: 'write to us' }).waitFor();
    // Raw HTML is shown as text, never run.
    await preview.getByText('<img src=x onerror=').waitFor();
    expect(await preview.locator('img').count()).toBe(0);

    // A save that fails says so, and the draft can be saved again.
    await page.route('**/api/admin/content/privacy', (route) =>
      route.request().method() === 'PUT' ? route.fulfill({ status: 503, body: '' }) : route.fallback(),
    );
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await toastText(page, 'Failed to update page content');
    await page.unroute('**/api/admin/content/privacy');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await toastText(page, 'Draft saved');

    // A draft is not published: the visitor still reads the built-in notice.
    await reader.reload();
    await reader.getByRole('heading', { name: 'People who open a short link' }).waitFor();

    // A publish that fails says so.
    await page.route('**/api/admin/content/privacy/publish', (route) =>
      route.fulfill({ status: 500, body: '' }),
    );
    await page.getByRole('button', { name: 'Publish' }).click();
    await toastText(page, 'Failed to publish page content');
    await page.unroute('**/api/admin/content/privacy/publish');

    await page.getByRole('button', { name: 'Publish' }).click();
    expect(await toastText(page, 'Page published')).toContain('Version 1 is live at /privacy');
    // Published and unchanged: nothing left to publish.
    await page.getByRole('button', { name: 'Publish' }).waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Publishing Settings' }).click();
    const settings = page.getByRole('tabpanel', { name: 'Publishing Settings' });
    await settings.getByText(/^Version 1, published .+, is what visitors read at \/privacy\.$/).waitFor();
    await settings.getByRole('button', { name: /^Version 1: Our privacy promise/ }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await reader.reload();
    await reader.getByRole('heading', { name: 'Our privacy promise', level: 1 }).waitFor();
    await reader.getByRole('heading', { name: 'What we keep', level: 2 }).waitFor();
    expect(await reader.getByRole('heading', { name: 'People who open a short link' }).count()).toBe(0);
    expect(await reader.getByRole('link', { name: 'write to us' }).getAttribute('href')).toBe('/contact');
    expect(await reader.locator('main img').count()).toBe(0);
    expect(await reader.title()).toBe('Our privacy promise | Sniplink');
    expect(await seriousAccessibilityViolations(reader)).toEqual([]);
  });
});
