import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] marketplace journey SKIPPED: ${unavailable}`);

const ADMIN = 'market-admin@example.com';

/** What the marketplace says, in one line. */
const mainText = async (page: Page) => (await page.getByRole('main').innerText()).replace(/\s+/g, ' ');

describe.skipIf(unavailable !== undefined)('the marketplace in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN });

  it('says what it is for before anything is for sale: none yet for a visitor, the Premium tab for an admin', async () => {
    const visitor = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await visitor.newPage();
    await page.goto('/marketplace');
    await page.getByRole('heading', { name: 'No premium slugs yet' }).waitFor();
    const said = await mainText(page);
    expect(said).toContain('None are for sale yet');
    expect(said).not.toContain('match');
    // Nothing to filter: no search box.
    expect(await page.getByRole('textbox', { name: 'Search premium slugs' }).count()).toBe(0);
    await visitor.close();

    const admin = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(admin, { email: ADMIN, firstName: 'Ada' });
    const adminPage = await admin.newPage();
    await adminPage.goto('/marketplace');
    await adminPage.getByRole('heading', { name: 'No premium slugs yet' }).waitFor();
    expect(await mainText(adminPage)).toContain('an admin adds them in the Premium tab');
    await adminPage.getByRole('link', { name: 'Open the Premium tab' }).click();
    await adminPage.waitForURL(
      (url) => url.pathname === '/admin' && url.searchParams.get('tab') === 'premium',
    );
    await adminPage.getByRole('tab', { name: 'Premium', selected: true }).waitFor();
    await admin.close();
  });

  it('shows each slug with a drawn category icon, and "No premium slugs match" only for a filter', async () => {
    const admin = await newDesktopContext(stack().browser, stack().app.baseUrl);
    // The admin signed up in the test above.
    const signedIn = await admin.request.post('/api/auth/login', {
      data: { email: ADMIN, password: 'a long enough password' },
    });
    expect(signedIn.status()).toBe(200);
    expect((await admin.request.post('/api/admin/premium-slugs/seed')).status()).toBe(200);
    await admin.close();

    const visitor = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await visitor.newPage();
    await page.goto('/marketplace');
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    const count = await cards.count();
    expect(await page.locator('article svg.tabler-icon').count()).toBe(count);
    // No emoji anywhere on the page: some systems draw them as empty boxes.
    expect(await mainText(page)).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(await mainText(page)).not.toContain('No premium slugs');

    await page.getByRole('textbox', { name: 'Search premium slugs' }).fill('no-slug-is-called-this');
    await page.getByText('No premium slugs match.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await cards.first().waitFor();
    expect(await cards.count()).toBe(count);
    await visitor.close();
  });
});
