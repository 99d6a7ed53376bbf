import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, signedInPage, startBrowserStack } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] Download my data journey SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('Download my data in Profile, in a real browser', () => {
  let stack: BrowserStack;
  beforeAll(async () => {
    stack = await startBrowserStack();
  });
  afterAll(() => stack?.stop());

  it('builds the export with its progress shown, then downloads the ZIP', async () => {
    const { context, page } = await signedInPage(stack, {
      email: 'ada.export@example.com',
      firstName: 'Ada',
    });
    const created = await context.request.post('/api/links', {
      data: { originalUrl: 'https://example.com/a' },
    });
    expect(created.status()).toBe(201);
    await page.goto('/profile');
    const card = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'Your data', level: 2 }),
    });
    await card.getByRole('button', { name: 'Download my data' }).click();
    // The progress shows while it builds (it may already be done on a fast machine).
    await card
      .getByText(/Preparing your data: \d of 4 parts/)
      .or(card.getByRole('link', { name: 'Download ZIP' }))
      .first()
      .waitFor();
    const link = card.getByRole('link', { name: 'Download ZIP' });
    await link.waitFor({ timeout: 20_000 });
    await card.getByText(/^Ready \(.+\), until /).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Still there after a reload: the export lives on the server.
    await page.reload();
    await link.waitFor();
    const download = page.waitForEvent('download');
    await link.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^sniplink-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const bytes = await readFile((await file.path()) as string);
    // A ZIP (its local-header signature) naming the links and their daily clicks in its directory.
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(bytes.includes('links.json')).toBe(true);
    expect(bytes.includes('daily-clicks.csv')).toBe(true);
  });
});
