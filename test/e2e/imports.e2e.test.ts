import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, signedInPage, startBrowserStack } from './harness';

const BITLY_EXPORT = path.resolve(
  import.meta.dirname,
  '../../services/api/src/imports/formats/fixtures/bitly.csv',
);
const YOURLS_EXPORT = path.resolve(
  import.meta.dirname,
  '../../services/api/src/imports/formats/fixtures/yourls.csv',
);
const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] import journey SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('importing links from the dashboard, in a real browser', () => {
  let stack: BrowserStack;
  beforeAll(async () => {
    stack = await startBrowserStack();
  });
  afterAll(() => stack?.stop());

  it('uploads a Bitly export, previews it, imports it with a progress bar, and its old codes redirect', async () => {
    const { context, page } = await signedInPage(stack, {
      email: 'ada.import@example.com',
      firstName: 'Ada',
    });
    await page.goto('/home');
    const card = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'Import links', level: 2 }),
    });
    await card.getByRole('button', { name: 'Import links' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import links' });
    await dialog.getByLabel('Source', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Source', { exact: true }).inputValue()).toBe('Bitly (CSV export)');
    await dialog.locator('input[type="file"]').setInputFiles(BITLY_EXPORT);
    await dialog.getByRole('button', { name: 'Preview' }).click();

    await dialog.getByText('4 links to import').waitFor();
    await dialog.getByText('5 rows read: 0 codes already taken here, 1 invalid row.').waitFor();
    await dialog.getByText('Row 4: This is not a valid URL').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // A reload keeps the dialog open on the same preview: the import waits on the server.
    await page.reload();
    await dialog.getByText('4 links to import').waitFor();
    await dialog.getByRole('button', { name: 'Import 4 links' }).click();

    await dialog.getByRole('status').filter({ hasText: 'Import finished: 4 links imported' }).waitFor();
    await dialog
      .getByText('1,241 imported clicks kept apart from the clicks Sniplink counts', { exact: false })
      .waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Café menu — 日本語').first().waitFor();

    // Its old code, opened as a visitor would: sent on to the target (another site, not followed here).
    const opened = await context.request.get('/s/cafe-menu', { maxRedirects: 0 });
    expect(opened.status()).toBe(302);
    expect(opened.headers().location).toBe('https://cafe.example.org/menu');
    await context.close();
  });

  it("imports a YOURLS admin's CSV export chosen as the source, and its old codes redirect", async () => {
    const { context, page } = await signedInPage(stack, {
      email: 'yuki.import@example.com',
      firstName: 'Yuki',
    });
    await page.goto('/home');
    await page.getByRole('button', { name: 'Import links' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import links' });
    await dialog.getByLabel('Source', { exact: true }).click();
    await page.getByRole('option', { name: 'YOURLS (CSV export)' }).click();
    expect(await dialog.getByLabel('Source', { exact: true }).inputValue()).toBe('YOURLS (CSV export)');
    await dialog.locator('input[type="file"]').setInputFiles(YOURLS_EXPORT);
    await dialog.getByRole('button', { name: 'Preview' }).click();

    await dialog.getByText('4 links to import').waitFor();
    await dialog.getByText('Row 4: Only http and https URLs can be shortened').waitFor();
    await dialog.getByRole('button', { name: 'Import 4 links' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Import finished: 4 links imported' }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Zürich, über alles').first().waitFor();

    for (const [code, target] of [
      ['ozhome', 'https://www.example.com/'],
      ['zurich', 'https://de.example.ch/z%C3%BCrich'],
    ]) {
      const opened = await context.request.get(`/s/${code}`, { maxRedirects: 0 });
      expect(opened.status(), code).toBe(302);
      expect(opened.headers().location).toBe(target);
    }
    await context.close();
  });
});
