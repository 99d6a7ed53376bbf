import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { browserStackFor, registerThroughApi, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] links journeys SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('making and finding links in a real browser', () => {
  // A self-hoster's own Free allowance: every page must name 8, none the built-in 5.
  const stack = browserStackFor({ FREE_LINK_LIMIT: '8', PRO_LINK_LIMIT: '40' });

  async function signedInContext(email: string): Promise<BrowserContext> {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(context, { email, firstName: 'Lena' });
    return context;
  }

  async function createThroughApi(context: BrowserContext, originalUrl: string, title: string) {
    const response = await context.request.post('/api/links', { data: { originalUrl, title } });
    if (!response.ok()) throw new Error(`create: ${response.status()} ${await response.text()}`);
  }

  /** The titles (or short URLs) of the link cards on the page, top to bottom. */
  const cardNames = (page: Page) =>
    page.getByRole('article').evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));
  const addressParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

  it('names the allowances in force on the landing page, not the built-in ones', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByText('Free: 8 links at a time. Pro: 40 links a month for $2.').waitFor();
    const pricing = page.locator('#pricing');
    await pricing.getByText('8 links at a time', { exact: true }).waitFor();
    await pricing.getByText('40 links a month', { exact: true }).waitFor();
    expect(await page.getByText(/\b5 links\b|\b500 links\b/).count()).toBe(0);
    await context.close();
  });

  it('creates a link with its own back-half and title from the form, then finds it by search', async () => {
    const context = await signedInContext('lena@example.com');
    await createThroughApi(context, 'https://example.com/winter', 'Winter coats');
    await createThroughApi(context, 'https://example.org/about', 'About us');
    const page = await context.newPage();
    await page.goto('/home');
    await page.getByRole('group', { name: 'Links Remaining' }).getByText('of 8 links at a time').waitFor();

    const create = page.getByRole('form', { name: 'Create New Short Link' });
    await create.getByRole('textbox', { name: 'Long URL' }).fill('example.com/spring-sale');
    await create.getByRole('textbox', { name: 'Title (optional)' }).fill('Spring sale');
    const backHalf = create.getByRole('textbox', { name: 'Custom back-half (optional)' });
    await backHalf.pressSequentially('spring-25', { delay: 20 });
    await create.getByText('This short code is available').waitFor();
    await create.getByRole('button', { name: 'Shorten' }).click();
    expect(await toastText(page, 'Link created successfully!')).toContain('/s/spring-25');
    // The form is empty again, ready for the next one.
    expect(await backHalf.inputValue()).toBe('');

    const card = page.getByRole('article', { name: 'Spring sale' });
    await card.getByRole('link', { name: /\/s\/spring-25$/ }).waitFor();
    await card.getByText('https://example.com/spring-sale').waitFor();

    // The back-half is taken now: the form says so on the field before anything is sent.
    await backHalf.pressSequentially('spring-25', { delay: 20 });
    await create.getByText('This short code is already taken').waitFor();
    expect(await backHalf.getAttribute('aria-invalid')).toBe('true');
    await backHalf.fill('');

    // Search: by title, by code, by target; the search is in the address and survives a reload.
    const search = page.getByRole('searchbox', { name: 'Search links' });
    await search.fill('spring');
    await expect.poll(() => cardNames(page)).toEqual(['Spring sale']);
    await expect.poll(() => addressParam(page, 'q')).toBe('spring');
    await page.reload();
    await expect.poll(() => cardNames(page)).toEqual(['Spring sale']);
    expect(await search.inputValue()).toBe('spring');
    await search.fill('example.org');
    await expect.poll(() => cardNames(page)).toEqual(['About us']);
    await search.fill('no such thing');
    await page.getByText('No links match “no such thing”.').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).first().click();
    await expect.poll(() => cardNames(page)).toEqual(['Spring sale', 'About us', 'Winter coats']);

    // A-Z, in the address too.
    // The segment's input is visually hidden: a person clicks its label.
    await page.getByText('A-Z', { exact: true }).click();
    expect(await page.getByRole('radio', { name: 'A-Z' }).isChecked()).toBe(true);
    await expect.poll(() => cardNames(page)).toEqual(['About us', 'Spring sale', 'Winter coats']);
    expect(addressParam(page, 'sort')).toBe('title');

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  }, 30_000);

  it('pages past five links, and deletes a selection across pages at once', async () => {
    const context = await signedInContext('bulk@example.com');
    for (let n = 1; n <= 7; n++)
      await createThroughApi(context, `https://example.com/item/${n}`, `Item ${n}`);
    const page = await context.newPage();
    await page.goto('/home');
    await expect.poll(() => cardNames(page)).toEqual(['Item 7', 'Item 6', 'Item 5', 'Item 4', 'Item 3']);

    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Item 2', 'Item 1']);
    expect(addressParam(page, 'page')).toBe('2');
    await page.getByRole('article', { name: 'Item 1' }).getByRole('checkbox').check();
    await page.getByText('6 selected').waitFor();

    await page.getByRole('button', { name: 'Delete selected' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Links' });
    await confirm.getByRole('button', { name: 'Delete 6 links' }).click();
    expect(await toastText(page, '6 links deleted')).toBe('6 links deleted');
    await expect.poll(() => cardNames(page)).toEqual(['Item 2']);
    expect(await page.getByRole('button', { name: 'Page 2' }).count()).toBe(0);
    await context.close();
  }, 30_000);
});
