import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../services/api/src/marketplace/seed-catalogue';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, signedInPage, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] premium slug journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'premium.curator@example.com';

describe.skipIf(unavailable !== undefined)('premium slugs in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });
  let admin: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    admin = await signedIn(ADMIN_EMAIL);
  });

  const signedIn = (email: string) => signedInPage(stack(), { email, firstName: 'Pat' });

  const row = (page: Page, slug: string) =>
    page
      .getByRole('table', { name: 'Premium slugs' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: slug, exact: true }) });

  it('an admin adds, bulk adds, seeds, edits and deletes premium slugs', async () => {
    const { page } = admin;
    await page.goto('/admin?tab=premium');
    await page.getByRole('tab', { name: 'Premium' }).waitFor();
    await page.getByText('No premium slugs match.').waitFor();

    // Add: the defaults, then the form's checks, then a slug lower-cased.
    await page.getByRole('button', { name: 'Add Slug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Premium Slug' });
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Price (USD)' }).inputValue()).toBe('25');
    expect(await dialog.getByLabel('Category', { exact: true }).inputValue()).toBe('Common Words');
    expect(await dialog.getByLabel('Tier', { exact: true }).inputValue()).toBe('Standard');
    await dialog.getByRole('button', { name: 'Add Slug' }).click();
    expect(await toastText(page, 'Slug required')).toBe('Slug required Please enter a slug.');
    await dialog.getByRole('textbox', { name: 'Slug' }).fill('  Launch ');
    await dialog.getByRole('textbox', { name: 'Price (USD)' }).fill('-1');
    await dialog.getByRole('button', { name: 'Add Slug' }).click();
    expect(await toastText(page, 'Invalid price')).toBe(
      'Invalid price Price must be greater than or equal to 0.',
    );
    await dialog.getByRole('textbox', { name: 'Price (USD)' }).fill('19.99');
    await dialog.getByRole('button', { name: 'Add Slug' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, 'launch').getByText('$19.99').waitFor();
    await row(page, 'launch').getByText('Available', { exact: true }).waitFor();

    // The same slug again: the server's message under the toast's title.
    await page.getByRole('button', { name: 'Add Slug' }).click();
    await dialog.getByRole('textbox', { name: 'Slug' }).fill('LAUNCH');
    await dialog.getByRole('button', { name: 'Add Slug' }).click();
    expect(await toastText(page, 'Error creating premium slug')).toContain(
      'This slug is already in the premium catalogue',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Bulk add: an empty list is refused; then blank lines dropped, progress shown.
    await page.getByRole('button', { name: 'Bulk Add' }).click();
    const bulk = page.getByRole('dialog', { name: 'Bulk Add Premium Slugs' });
    await bulk.getByRole('button', { name: 'Add Slugs' }).click();
    expect(await toastText(page, 'No slugs provided')).toBe(
      'No slugs provided Please enter at least one slug.',
    );
    await bulk.getByRole('textbox', { name: 'Slugs' }).fill('alpha1\n\n  beta2  \ngamma3\n');
    await bulk.getByRole('button', { name: 'Add Slugs' }).click();
    await bulk.getByText(/Adding \d of 3/).waitFor();
    expect(await toastText(page, '3 premium slugs created')).toContain('3 premium slugs created');
    await bulk.waitFor({ state: 'hidden' });
    for (const slug of ['alpha1', 'beta2', 'gamma3']) await row(page, slug).waitFor();

    // Seed, confirmed; a second seed creates none.
    for (const expected of [
      `${seedCatalogue.length} premium slugs created, 0 already existed.`,
      `0 premium slugs created, ${seedCatalogue.length} already existed.`,
    ]) {
      await page.getByRole('button', { name: 'Seed Slugs' }).click();
      await page
        .getByRole('dialog', { name: 'Seed Premium Slugs' })
        .getByRole('button', { name: 'Seed' })
        .click();
      expect(await toastText(page, expected)).toBe(expected);
    }
    await page
      .getByRole('group', { name: 'Total Slugs' })
      .getByText(String(seedCatalogue.length + 4), { exact: true })
      .waitFor();

    // 25 a page; a filter change returns to page 1 (on page 2 the search would find nothing).
    await page.getByRole('button', { name: '2', exact: true }).click();
    await row(page, 'alpha1').waitFor({ state: 'detached' });
    await page
      .getByRole('table', { name: 'Premium slugs' })
      .getByRole('row')
      .nth(seedCatalogue.length + 4 - 25)
      .waitFor();
    await page.getByRole('textbox', { name: 'Search slugs' }).fill('launch');
    await row(page, 'launch').waitFor();

    // Edit: price in dollars, withdrawn from sale.
    await row(page, 'launch').getByRole('button', { name: 'Edit launch' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Premium Slug' });
    expect(await edit.getByRole('textbox', { name: 'Price (USD)' }).inputValue()).toBe('19.99');
    await edit.getByRole('textbox', { name: 'Price (USD)' }).fill('30');
    await edit.getByRole('switch', { name: 'Available' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row(page, 'launch').getByText('$30.00').waitFor();
    // Withdrawn and bought by no one: not for sale, and not "Owned".
    await row(page, 'launch').getByText('Not for sale', { exact: true }).waitFor();

    // Delete, confirmed.
    await row(page, 'launch').getByRole('button', { name: 'Delete launch' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Premium Slug' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No premium slugs match.').waitFor();
  });

  it('a visitor opens the marketplace from the landing page and sees "Login to Purchase"; a Free user "Upgrade to Pro"', async () => {
    // The catalogue seeded (again: nothing more if the admin's journey did it).
    const seeded = await admin.context.request.post('/api/admin/premium-slugs/seed');
    expect(seeded.status()).toBe(200);
    const visitor = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await visitor.newPage();
    await page.goto('/');
    await page
      .getByRole('button', { name: 'Premium Slugs' })
      .or(page.getByRole('link', { name: 'Premium Slugs' }))
      .first()
      .click();
    await page.waitForURL('**/marketplace');
    await page.getByRole('heading', { level: 1, name: 'Premium Slugs Marketplace' }).waitFor();
    expect(await page.title()).toBe('Premium Slugs Marketplace | Sniplink');
    const card = page.getByRole('article', { name: 'Premium slug deals' });
    await card.waitFor();
    expect(await card.innerText()).toContain('$25.00');
    const login = card.getByRole('link', { name: 'Login to Purchase' });
    expect(new URL((await login.getAttribute('href')) ?? '', stack().app.baseUrl).pathname).toBe(
      '/api/login',
    );
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByText('Home').waitFor();

    // Search narrows the cards.
    await page.getByRole('textbox', { name: 'Search premium slugs' }).fill('alpha');
    await page.getByRole('article', { name: 'Premium slug alpha1' }).waitFor();
    await card.waitFor({ state: 'detached' });

    const { page: freePage } = await signedIn('premium.free@example.com');
    await freePage.goto('/marketplace');
    const freeCard = freePage.getByRole('article', { name: 'Premium slug deals' });
    await freeCard.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    await freePage.getByRole('navigation', { name: 'Breadcrumbs' }).getByText('Dashboard').waitFor();
  });
});
