import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserUnavailableReason,
  desktopChromeUserAgent,
  newDesktopContext,
  seriousAccessibilityViolations,
} from './browser';
import { type BrowserStack, registerThroughApi, startBrowserStack, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] moderation journey SKIPPED: ${unavailable}`);

const ADMIN = 'moderate.admin@example.com';

/**
 * The Moderate tab and a user's code that contains a protected brand: the admin lists the brand, the
 * user's code waits (the dashboard says so, the short link shows the pending page), the admin approves
 * it, and the short link redirects.
 */
describe.skipIf(unavailable !== undefined)(
  'moderation: a protected brand from the console to the redirect',
  () => {
    let stack: BrowserStack;
    let admin: BrowserContext;
    let user: BrowserContext;

    beforeAll(async () => {
      stack = await startBrowserStack({ ADMIN_EMAILS: ADMIN });
      admin = await newDesktopContext(stack.browser, stack.app.baseUrl);
      await registerThroughApi(admin, { email: ADMIN, firstName: 'Ada' });
      user = await newDesktopContext(stack.browser, stack.app.baseUrl);
      await registerThroughApi(user, { email: 'brand.fan@example.com', firstName: 'Bo' });
    });

    afterAll(async () => {
      await admin?.close();
      await user?.close();
      await stack?.stop();
    });

    /** What a visitor's browser gets at the short link, without following a redirect. */
    const visit = (code: string) =>
      fetch(`${stack.app.baseUrl}/s/${code}`, {
        redirect: 'manual',
        headers: { 'user-agent': desktopChromeUserAgent },
      });

    it('an admin adds a brand, a user claims a code with it, the admin approves it, and it redirects', async () => {
      const console = await admin.newPage();
      await console.goto('/admin');
      await console.getByRole('tab', { name: 'Moderate' }).click();
      await console.waitForURL((url) => url.searchParams.get('tab') === 'moderate');
      await console.getByRole('tab', { name: 'Protected Brands' }).click();
      await console.waitForURL((url) => url.searchParams.get('list') === 'brands');

      // The name is required; the defaults are tech and requires approval.
      const addBrand = console.getByRole('form', { name: 'Add protected brand' });
      await addBrand.getByRole('button', { name: 'Add Brand' }).click();
      await addBrand.getByText('Brand name is required').waitFor();
      expect(await addBrand.getByRole('switch', { name: 'Requires approval' }).isChecked()).toBe(true);
      await addBrand.getByRole('textbox', { name: 'Brand' }).fill('Contoso');
      await addBrand.getByRole('button', { name: 'Add Brand' }).click();
      await toastText(console, 'Protected brand added');
      const brandRow = console
        .getByRole('table', { name: 'Protected brands' })
        .getByRole('row')
        .filter({ hasText: 'Contoso' });
      await brandRow.getByRole('cell', { name: 'Tech' }).waitFor();
      await brandRow.getByRole('switch', { name: 'Active: Contoso' }).waitFor();
      expect(await seriousAccessibilityViolations(console)).toEqual([]);

      // The same brand again is refused with the console's words and the server's reason.
      await addBrand.getByRole('textbox', { name: 'Brand' }).fill('CONTOSO');
      await addBrand.getByRole('button', { name: 'Add Brand' }).click();
      expect(await toastText(console, 'Failed to add protected brand')).toContain(
        'already in the protected list',
      );

      // The user claims a code containing the brand (disguised): it is created, marked pending.
      const home = await user.newPage();
      await home.goto('/home');
      const create = home.getByRole('form', { name: 'Create New Short Link' });
      await create.getByRole('textbox', { name: 'Long URL' }).fill('example.com/contoso-fan-club');
      await create.getByRole('textbox', { name: 'Custom back-half (optional)' }).fill('c0nt0so-fans');
      await create.getByRole('button', { name: 'Shorten' }).click();
      expect(await toastText(home, 'Link created successfully!')).toContain('an admin approves it');
      await home
        .getByRole('article')
        .filter({ hasText: 'c0nt0so-fans' })
        .getByText('Pending approval')
        .waitFor();

      // The short link shows the pending page: no redirect.
      const pending = await visit('c0nt0so-fans');
      expect(pending.status).toBe(423);
      expect(await pending.text()).toContain('pending review');
      const pendingPage = await user.newPage();
      await pendingPage.goto('/s/c0nt0so-fans');
      await pendingPage.getByRole('heading', { name: 'This link is pending review' }).waitFor();

      // The admin finds it in the Approvals queue (pending by default) and approves it.
      await console.getByRole('tab', { name: 'Approvals' }).click();
      await console.waitForURL((url) => url.searchParams.get('list') === 'approvals');
      const approvals = console.getByRole('table', { name: 'Slug approvals' });
      const row = approvals.getByRole('row').filter({ hasText: 'c0nt0so-fans' });
      await row.getByRole('cell', { name: 'Contoso' }).waitFor();
      await row.getByRole('button', { name: 'Approve c0nt0so-fans' }).click();
      await toastText(console, 'Short code approved');
      await row.waitFor({ state: 'detached' });

      // Approved ones are a filter away, without the buttons.
      await console
        .locator('input')
        .and(console.getByLabel('Status', { exact: true }))
        .click();
      await console.getByRole('option', { name: 'Approved' }).click();
      await console.waitForURL((url) => url.searchParams.get('approval') === 'approved');
      const approved = approvals.getByRole('row').filter({ hasText: 'c0nt0so-fans' });
      await approved.getByText('Approved').waitFor();
      expect(await approved.getByRole('button').count()).toBe(0);

      // The short link redirects now.
      const redirect = await visit('c0nt0so-fans');
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('https://example.com/contoso-fan-club');
      await home.reload();
      await home.getByRole('article').filter({ hasText: 'c0nt0so-fans' }).waitFor();
      expect(await home.getByText('Pending approval').count()).toBe(0);
    });

    it('a prohibited word refuses the code with a toast that does not repeat it', async () => {
      const console = await admin.newPage();
      await console.goto('/admin?tab=moderate');
      const addWord = console.getByRole('form', { name: 'Add prohibited word' });
      await addWord.getByRole('textbox', { name: 'Word' }).fill('grifter');
      await addWord.getByRole('button', { name: 'Add Word' }).click();
      await toastText(console, 'Prohibited word added');
      const wordRow = console
        .getByRole('table', { name: 'Prohibited words' })
        .getByRole('row')
        .filter({ hasText: 'grifter' });
      await wordRow.getByRole('cell', { name: 'Offensive' }).waitFor();
      await wordRow.getByText('Medium').waitFor();

      const home = await user.newPage();
      await home.goto('/home');
      const create = home.getByRole('form', { name: 'Create New Short Link' });
      await create.getByRole('textbox', { name: 'Long URL' }).fill('example.com/offer');
      await create.getByRole('textbox', { name: 'Custom back-half (optional)' }).fill('gr1fter-deals');
      await create.getByRole('button', { name: 'Shorten' }).click();
      const said = await toastText(home, 'Short Code Not Allowed');
      expect(said).toContain('This short code is not allowed');
      expect(said.toLowerCase()).not.toContain('grifter');

      // Deleting asks for a confirmation first.
      await wordRow.getByRole('button', { name: 'Delete grifter' }).click();
      await console
        .getByRole('dialog', { name: 'Delete Prohibited Word' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await toastText(console, 'Prohibited word deleted');
      await wordRow.waitFor({ state: 'detached' });
    });

    it('a rejected code: the link gets a new code and the dashboard says why', async () => {
      const home = await user.newPage();
      await home.goto('/home');
      const create = home.getByRole('form', { name: 'Create New Short Link' });
      await create.getByRole('textbox', { name: 'Long URL' }).fill('example.com/not-contoso');
      await create.getByRole('textbox', { name: 'Custom back-half (optional)' }).fill('contoso-outlet');
      await create.getByRole('button', { name: 'Shorten' }).click();
      await toastText(home, 'Link created successfully!');

      const console = await admin.newPage();
      await console.goto('/admin?tab=moderate&list=approvals');
      const row = console
        .getByRole('table', { name: 'Slug approvals' })
        .getByRole('row')
        .filter({ hasText: 'contoso-outlet' });
      await row.getByRole('button', { name: 'Reject contoso-outlet' }).click();
      await toastText(console, 'Short code rejected');
      await row.waitFor({ state: 'detached' });

      await home.reload();
      const notice = home.getByRole('status').filter({ hasText: 'A short code was not approved' });
      await notice.getByText('Brand protection violation').waitFor();
      expect(await notice.innerText()).toContain('contoso-outlet');
      expect((await visit('contoso-outlet')).status).toBe(404);
    });
  },
);
