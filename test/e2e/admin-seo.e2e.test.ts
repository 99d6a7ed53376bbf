import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, browserUnavailableReason } from './browser';
import { browserStackFor, signedInPage, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] SEO journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'seo.keeper@example.com';
const TITLE = 'About Sniplink: honest short links for local shops';
const DESCRIPTION =
  'Who makes Sniplink and why a short link should tell you who opened it, from where and when.';
const OG_TITLE = 'Meet the people behind Sniplink';
const OG_IMAGE = 'https://cdn.example.com/about-card.png';

/** The served HTML's `<title>`, fetched as a crawler does: no browser, no JavaScript. */
async function servedTitle(baseUrl: string, path: string): Promise<string | undefined> {
  const html = await (await fetch(`${baseUrl}${path}`)).text();
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

const previewText = (page: Page, region: string, part: string) =>
  page.getByRole('region', { name: region }).locator(`[data-preview="${part}"]`).innerText();

describe.skipIf(unavailable !== undefined)('the SEO tab in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  it('an admin edits /about with both previews following the typing, saves, and the served page carries the new title', async () => {
    const { app } = stack();
    const { page } = await signedInPage(stack(), { email: ADMIN_EMAIL, firstName: 'Sam' });
    await page.goto('/admin?tab=seo');

    // The tab stands between Support and Announce, and lists the nine public pages, none set up yet.
    const table = page.getByRole('table', { name: 'SEO settings of the public pages' });
    await table.waitFor();
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs.indexOf('SEO')).toBe(tabs.indexOf('Support') + 1);
    expect(tabs.indexOf('Announce')).toBe(tabs.indexOf('SEO') + 1);
    const paths = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(paths.map((cell) => cell.split('\n').at(-1)?.trim())).toEqual([
      '/',
      '/home',
      '/subscribe',
      '/marketplace',
      '/about',
      '/privacy',
      '/terms',
      '/contact',
      '/help',
    ]);
    const aboutRow = table.getByRole('row').filter({ hasText: '/about' });
    expect(await aboutRow.textContent()).toContain('Needs Setup');
    expect(await servedTitle(app.baseUrl, '/about')).toBe('About Sniplink | Sniplink');

    // The editor opens at its own address, starting from what the page shows today.
    await aboutRow.getByRole('button', { name: 'Edit SEO settings of About' }).click();
    const dialog = page.getByRole('dialog', { name: 'SEO settings: About (/about)' });
    await dialog.waitFor();
    expect(new URL(page.url()).searchParams.get('seoPage')).toBe('about');
    expect(await previewText(page, 'Search result preview', 'title')).toBe('About Sniplink | Sniplink');

    // Both previews follow the typing.
    await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill(TITLE);
    await expect.poll(() => previewText(page, 'Search result preview', 'title')).toBe(TITLE);
    await expect.poll(() => previewText(page, 'Social share preview', 'og-title')).toBe(TITLE);
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill(DESCRIPTION);
    await expect.poll(() => previewText(page, 'Search result preview', 'description')).toBe(DESCRIPTION);
    await dialog.getByRole('textbox', { name: 'Keywords' }).fill('short links, click tracking, local');
    await dialog.getByText('Comma-separated; 3 keywords').waitFor();
    await dialog.getByRole('textbox', { name: 'OG title' }).fill(OG_TITLE);
    await expect.poll(() => previewText(page, 'Social share preview', 'og-title')).toBe(OG_TITLE);
    // The image's host answers as a CDN would, with a picture of the suggested 1200×630.
    await page.route(OG_IMAGE, (route) =>
      route.fulfill({
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><rect width="1200" height="630" fill="#1c7ed6"/></svg>',
      }),
    );
    await dialog.getByRole('textbox', { name: 'OG image' }).fill(OG_IMAGE);
    const card = page.getByRole('region', { name: 'Social share preview' });
    await expect.poll(() => card.getByRole('img').getAttribute('src')).toBe(OG_IMAGE);
    await card.getByText('Image is 1200×630').waitFor();
    // Length guidance is shown, never enforced.
    await dialog.getByText(`${TITLE.length} characters; 50-60 suggested`).waitFor();
    await dialog.getByText(/characters; 150-160 suggested \(shorter than suggested\)/).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // A save the server refuses says so, and the dialog stays open with what was typed.
    await page.route('**/api/admin/seo/about', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"SERVICE_UNAVAILABLE"}' }),
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await toastText(page, 'Error')).toBe('Error Failed to update SEO settings');
    expect(await dialog.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).toBe(TITLE);
    await page.unroute('**/api/admin/seo/about');

    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await toastText(page, 'SEO settings updated successfully')).toBe(
      'SEO settings updated successfully',
    );
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => aboutRow.textContent()).toContain('Configured');
    expect(await aboutRow.textContent()).toContain(TITLE);

    // A crawler's fresh fetch of /about has the new title; so does a visitor's browser tab.
    expect(await servedTitle(app.baseUrl, '/about')).toBe(TITLE);
    const visitor = await stack().browser.newContext({ baseURL: app.baseUrl });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto('/about');
    await expect.poll(() => visitorPage.title()).toBe(TITLE);
    await visitor.close();
  });
});
