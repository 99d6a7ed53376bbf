import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, registerThroughApi, startBrowserStack, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] admin config journey SKIPPED: ${unavailable}`);

const ADMIN = 'config.admin@example.com';

/** The Config tab of the console: an admin adds, edits and deletes an entry, and the app follows. */
describe.skipIf(unavailable !== undefined)('the admin console: Config', () => {
  let stack: BrowserStack;
  let context: BrowserContext;

  beforeAll(async () => {
    stack = await startBrowserStack({ ADMIN_EMAILS: ADMIN });
    context = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(context, { email: ADMIN, firstName: 'Ada' });
  });

  afterAll(async () => {
    await context?.close();
    await stack?.stop();
  });

  /** The admin's own Free allowance, as the dashboard shows it. */
  const freeLimit = async () => {
    const user = (await (await context.request.get('/api/auth/user')).json()) as {
      linkAllowance: { limit: number };
    };
    return user.linkAllowance.limit;
  };

  const row = (page: Page, key: string) =>
    page.getByRole('table', { name: 'Config entries' }).getByRole('row').filter({ hasText: key });

  it('adds an entry (key and value required, a known key checked), edits it with the key read-only, deletes it after a confirmation', async () => {
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Config' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'config');
    await page.getByText('No config entries yet').waitFor();
    // Never set, every key the app reads is listed with its value and default.
    const knownSetting = (key: string) =>
      page.getByRole('table', { name: 'Settings the app reads' }).getByRole('row').filter({ hasText: key });
    await knownSetting('links.free_limit').getByRole('cell', { name: '5 (default)' }).waitFor();
    await knownSetting('links.pro_monthly_limit').getByRole('cell', { name: '500 (default)' }).waitFor();
    // The default names the variable that replaces it.
    await knownSetting('links.free_limit').getByRole('cell', { name: '5 (FREE_LINK_LIMIT)' }).waitFor();

    // Add: both fields are required before anything is sent.
    await page.getByRole('button', { name: 'Add Entry' }).click();
    const addForm = page.getByRole('form', { name: 'Add config entry' });
    await addForm.getByRole('button', { name: 'Add', exact: true }).click();
    await addForm.getByText('Key is required').waitFor();
    await addForm.getByText('Value is required').waitFor();

    // A known key shows what it takes; a value it does not take is refused with the server's message.
    await addForm.getByLabel('Key').fill('links.free_limit');
    await addForm
      .getByText(
        'Links a Free account may hold: a whole number from 0 to 1000000; default 5 (FREE_LINK_LIMIT when set).',
      )
      .waitFor();
    await addForm.getByLabel('Value').fill('two');
    await addForm.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await toastText(page, 'Failed to add config entry')).toContain(
      'links.free_limit must be a whole number from 0 to 1000000',
    );
    await addForm.getByLabel('Value').fill('2');
    await addForm.getByLabel('Description').fill('Launch week');
    await addForm.getByRole('button', { name: 'Add', exact: true }).click();
    await toastText(page, 'Config entry added');
    await addForm.waitFor({ state: 'detached' });
    const added = row(page, 'links.free_limit');
    await added.getByRole('cell', { name: '2', exact: true }).waitFor();
    await added.getByRole('cell', { name: 'Launch week' }).waitFor();
    expect(await freeLimit()).toBe(2);
    await knownSetting('links.free_limit').getByRole('cell', { name: '2', exact: true }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Edit: the key cannot be changed.
    await page.getByRole('button', { name: 'Edit links.free_limit' }).click();
    const editForm = page.getByRole('form', { name: 'Edit config entry' });
    const key = editForm.getByLabel('Key');
    expect(await key.inputValue()).toBe('links.free_limit');
    expect(await key.getAttribute('readonly')).not.toBeNull();
    await editForm.getByLabel('Value').fill('3');
    await editForm.getByRole('button', { name: 'Save' }).click();
    await toastText(page, 'Config entry updated');
    await row(page, 'links.free_limit').getByRole('cell', { name: '3', exact: true }).waitFor();
    expect(await freeLimit()).toBe(3);

    // Delete asks first; Cancel keeps the entry.
    await page.getByRole('button', { name: 'Delete links.free_limit' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Config Entry' });
    expect(await confirm.innerText()).toContain('Are you sure you want to delete links.free_limit?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row(page, 'links.free_limit').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete links.free_limit' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastText(page, 'Config entry deleted');
    await page.getByText('No config entries yet').waitFor();
    expect(await freeLimit()).toBe(5);
  });
});
