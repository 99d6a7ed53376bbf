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

  it('names the allowances in force on the landing page and the info pages, not the built-in ones', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByText('Free: 8 links at a time. Pro: 40 links a month for $2.').waitFor();
    const pricing = page.locator('#pricing');
    await pricing.getByText('8 links at a time', { exact: true }).waitFor();
    await pricing.getByText('40 links a month', { exact: true }).waitFor();
    await page
      .getByText('Free holds 8 links at a time, for as long as you keep them.', { exact: false })
      .waitFor();
    expect(await page.getByText(/\b5 links\b|\b500 links\b|\bfive\b/i).count()).toBe(0);
    // The info pages say it in the same words (help's answer may sit in a folded panel: its text counts).
    for (const path of ['/help', '/about', '/terms']) {
      await page.goto(path);
      await expect.poll(() => page.locator('main').textContent()).toContain('8 links at a time');
      expect(await page.locator('main').textContent()).toContain('40 links a month');
    }
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
    await expect.poll(() => addressParam(page, 'sort')).toBe('title');

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  }, 30_000);

  it('pages past five links, more to a page if asked, and deletes a selection across pages at once', async () => {
    const context = await signedInContext('bulk@example.com');
    for (let n = 1; n <= 7; n++)
      await createThroughApi(context, `https://example.com/item/${n}`, `Item ${n}`);
    const page = await context.newPage();
    await page.goto('/home');
    await expect.poll(() => cardNames(page)).toEqual(['Item 7', 'Item 6', 'Item 5', 'Item 4', 'Item 3']);

    // More to a page, kept in the address.
    const perPage = page.getByRole('combobox', { name: 'Links per page' });
    await perPage.selectOption('10');
    await expect.poll(() => page.getByRole('article').count()).toBe(7);
    await expect.poll(() => addressParam(page, 'per')).toBe('10');
    expect(await page.getByRole('button', { name: 'Page 2' }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByRole('article').count()).toBe(7);
    await perPage.selectOption('5');
    await expect.poll(() => page.getByRole('article').count()).toBe(5);
    await expect.poll(() => addressParam(page, 'per')).toBeNull();

    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Item 2', 'Item 1']);
    await expect.poll(() => addressParam(page, 'page')).toBe('2');
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

  it('says on onboarding why a link cannot be made at the limit, and what to do', async () => {
    const context = await signedInContext('full@example.com');
    for (let n = 1; n <= 8; n++)
      await createThroughApi(context, `https://example.com/full/${n}`, `Full ${n}`);
    const page = await context.newPage();
    await page.goto('/onboarding');
    await page.getByRole('button', { name: 'Get started' }).click();
    const form = page.getByRole('form', { name: 'Create your first short link' });
    await form.getByRole('textbox', { name: 'Long URL' }).fill('example.com/one-more');
    await form.getByRole('button', { name: 'Create short link' }).click();
    const alert = form.getByRole('alert');
    await alert.getByText('Link limit reached').waitFor();
    expect((await alert.innerText()).replace(/\s+/g, ' ')).toContain(
      'Free accounts can hold 8 links at a time. Delete a link, or upgrade to Pro to create more.',
    );
    await alert.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    await alert.getByRole('link', { name: 'Manage your links' }).click();
    await page.waitForURL((url) => url.pathname === '/home');
    await context.close();
  });

  it('shows a Free account its plan in plain words, and dates as its locale writes them', async () => {
    const context = await signedInContext('plain@example.com');
    const page = await context.newPage();
    await page.goto('/profile');
    const account = page.getByRole('heading', { name: 'Account' }).locator('..');
    const facts = () => account.innerText().then((text) => text.replace(/\s+/g, ' '));
    await account.getByText('Free plan', { exact: true }).waitFor();
    expect(await facts()).not.toMatch(/Inactive|inactive/);
    // en-US, joined this year: "November 28", no year and no 11/28/2026.
    const today = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric' }).format(new Date());
    expect(await facts()).toContain(`Member since ${today}`);
    expect(await facts()).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}/);
    await context.close();
  });

  it('signs up and in with the same styled field errors, never a browser bubble', async () => {
    await (await signedInContext('taken@example.com')).close();
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Create account' }).click();
    const signUp = page.getByRole('form', { name: 'Create account' });
    expect(await signUp.getAttribute('novalidate')).not.toBeNull();
    await signUp.getByLabel('E-mail').fill('not-an-address');
    await signUp.locator('input[type="password"]').fill('short');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await signUp.getByText('Enter an e-mail address such as name@example.com').waitFor();
    await signUp.getByText('Password must be at least 8 characters').waitFor();
    expect(await signUp.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    // Typing in the field takes its problem away.
    await signUp.getByLabel('E-mail').fill('taken@example.com');
    expect(await signUp.getByText('Enter an e-mail address such as name@example.com').count()).toBe(0);
    // The address has an account already: said on the field, with the way to sign in.
    await signUp.locator('input[type="password"]').fill('a long enough password');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await signUp.getByText('An account with this e-mail address already exists.').waitFor();
    await signUp.getByRole('button', { name: 'Sign in instead' }).click();

    const signIn = page.getByRole('form', { name: 'Sign in' });
    expect(await signIn.getAttribute('novalidate')).not.toBeNull();
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.getByText('Enter your password').waitFor();
    // Wrong credentials belong to no one field: the styled alert says so.
    await signIn.locator('input[type="password"]').fill('not the password');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn
      .getByRole('alert')
      .getByText('That e-mail address and password do not match an account.')
      .waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
