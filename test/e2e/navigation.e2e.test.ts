import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] navigation journey SKIPPED: ${unavailable}`);

/** The sign-in page's tab that is open. */
const openTab = (page: Page) => page.getByRole('tab', { selected: true }).innerText();

describe.skipIf(unavailable !== undefined)(
  'signed-in pages, sign-in tabs and error pages in a real browser',
  () => {
    const stack = browserStackFor();

    it('sends a signed-out visit of /home or /profile to sign-in, which then comes back to it', async () => {
      const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
      const page = await context.newPage();
      await page.goto('/home');
      await page.waitForURL(
        (url) => url.pathname === '/login' && url.searchParams.get('returnTo') === '/home',
      );
      expect(await openTab(page)).toBe('Sign in');

      await page.goto('/profile');
      await page.waitForURL(
        (url) => url.pathname === '/login' && url.searchParams.get('returnTo') === '/profile',
      );
      // The dashboard and the profile never showed.
      expect(await page.getByRole('heading', { name: 'Profile Settings' }).count()).toBe(0);

      const other = await newDesktopContext(stack().browser, stack().app.baseUrl);
      await registerThroughApi(other, { email: 'katherine@example.com', firstName: 'Katherine' });
      await other.close();
      const form = page.getByRole('form', { name: 'Sign in' });
      await form.getByLabel('E-mail').fill('katherine@example.com');
      await form.locator('input[type="password"]').fill('a long enough password');
      await form.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/profile');
      await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor();
      await context.close();
    });

    it('opens the Create account tab from every "Start Free" button, and Sign in from "Login"', async () => {
      const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
      const page = await context.newPage();
      const startFree = [
        () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Start Free' }),
        () => page.getByRole('link', { name: 'Start Free Today' }),
        () => page.locator('#pricing').getByRole('link', { name: 'Start Free' }),
        () => page.getByRole('link', { name: 'Start Free Trial' }),
      ];
      for (const button of startFree) {
        await page.goto('/');
        await button().click();
        await page.waitForURL((url) => url.pathname === '/login');
        expect(await openTab(page)).toBe('Create account');
        await page.getByRole('form', { name: 'Create account' }).waitFor();
      }
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      expect(await openTab(page)).toBe('Sign in');
      await context.close();
    });

    it('shows the not-found page for an unknown path, with the top bar and a way home', async () => {
      const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
      const page = await context.newPage();
      const response = await page.goto('/no/such/page');
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await context.close();
    });

    it('shows a friendly error when a page cannot load, whose "Try again" loads it once it can', async () => {
      const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
      const page = await context.newPage();
      // The help page's code is out of reach, as when the network drops.
      const helpCode = /\/assets\/help-[^/]*\.js$/;
      await page.route(helpCode, (route) => route.abort());
      await page.goto('/help');
      const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
      await alert.getByRole('heading', { name: 'Something went wrong', level: 1 }).waitFor();
      await alert.getByRole('link', { name: 'Go to the home page' }).waitFor();
      // The top bar still works, and nothing technical is shown.
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await alert.innerText()).not.toMatch(/dynamically imported module|TypeError|Error:/);

      await page.unroute(helpCode);
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();
      expect(await alert.count()).toBe(0);
      await context.close();
    });
  },
);
