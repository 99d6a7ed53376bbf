import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { browserStackFor, signedInPage, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] announcement journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'announcer@example.com';
const TITLE = 'Scheduled maintenance';
/** Markup in a message is text: it must show literally and never run. */
const MESSAGE = 'Tonight 22:00 UTC. <img src=x onerror="window.__announced=1"> Links keep redirecting.';

describe.skipIf(unavailable !== undefined)('announcements in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  const signedIn = (email: string, firstName: string) => signedInPage(stack(), { email, firstName });

  /**
   * Opens the dashboard and waits until its announcements have answered and the page has settled; then
   * the banner with this title is there or, for good, not.
   */
  async function bannerOn(page: Page, title: string): Promise<Locator> {
    const answered = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/announcements',
    );
    await page.goto('/home');
    expect((await answered).status()).toBe(200);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    return page.getByRole('alert').filter({ hasText: title });
  }

  const bannersTitled = async (page: Page, title: string) => (await bannerOn(page, title)).count();

  it('an admin publishes a warning for all; a user sees it as text, dismisses it for good; switched off, no one sees it', async () => {
    const { page: adminPage } = await signedIn(ADMIN_EMAIL, 'Ada');
    await adminPage.goto('/admin?tab=announce');
    const announceTab = adminPage.getByRole('tab', { name: 'Announce' });
    await announceTab.waitFor();
    expect(await announceTab.getAttribute('aria-selected')).toBe('true');
    await adminPage.getByText('No announcements yet.').waitFor();

    // The dialog opens on the defaults: type Info, audience All users, active.
    await adminPage.getByRole('button', { name: 'New Announcement' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'New Announcement' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Type', { exact: true }).inputValue()).toBe('Info');
    expect(await dialog.getByLabel('Audience', { exact: true }).inputValue()).toBe('All users');
    expect(await dialog.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);

    // Blank fields are refused in the dialog, naming them.
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await dialog.getByText('Title is required').waitFor();
    await dialog.getByText('Message is required').waitFor();

    await dialog.getByRole('textbox', { name: 'Title' }).fill(TITLE);
    await dialog.getByRole('textbox', { name: 'Message' }).fill(MESSAGE);
    await dialog.getByLabel('Type', { exact: true }).click();
    await adminPage.getByRole('option', { name: 'Warning' }).click();
    expect(await seriousAccessibilityViolations(adminPage)).toEqual([]);
    await dialog.getByRole('button', { name: 'Publish' }).click();
    expect(await toastText(adminPage, 'Announcement published')).toBe('Announcement published');
    await dialog.waitFor({ state: 'hidden' });

    // The list refreshed: the new row, with its type, audience and switch.
    const row = adminPage.getByRole('row').filter({ hasText: TITLE });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual([TITLE, MESSAGE, 'Warning', 'All users']);
    expect(cells[5]).toMatch(/\d{4}/);
    const activeSwitch = row.getByRole('switch', { name: `Active: ${TITLE}` });
    expect(await activeSwitch.isChecked()).toBe(true);
    expect(await seriousAccessibilityViolations(adminPage)).toEqual([]);

    // A user sees the banner near the top of /home, in the warning colour, the markup as literal text.
    const { page: userPage } = await signedIn('reader@example.com', 'Rita');
    const banner = await bannerOn(userPage, TITLE);
    await banner.waitFor();
    expect(await banner.getAttribute('data-type')).toBe('warning');
    expect(await banner.getAttribute('style')).toContain('orange');
    expect((await banner.innerText()).replace(/\s+/g, ' ')).toContain(MESSAGE);
    expect(await banner.locator('img').count()).toBe(0);
    expect(
      await userPage.evaluate(() => (globalThis as { __announced?: number }).__announced),
    ).toBeUndefined();
    expect(await seriousAccessibilityViolations(userPage)).toEqual([]);

    // Closed, it stays closed: after a reload too.
    const dismissed = userPage.waitForResponse((response) => response.url().endsWith('/dismiss'));
    await banner.getByRole('button', { name: `Dismiss announcement: ${TITLE}` }).click();
    await banner.waitFor({ state: 'detached' });
    expect((await dismissed).status()).toBe(200);
    expect(await bannersTitled(userPage, TITLE)).toBe(0);

    // Another user still sees it, until the admin switches it off.
    const { page: otherPage } = await signedIn('other.reader@example.com', 'Otto');
    await (await bannerOn(otherPage, TITLE)).waitFor();
    await activeSwitch.click({ force: true });
    expect(await toastText(adminPage, 'Announcement switched off')).toBe('Announcement switched off');
    await expect.poll(() => activeSwitch.isChecked()).toBe(false);
    expect(await bannersTitled(otherPage, TITLE)).toBe(0);
    expect(await bannersTitled(adminPage, TITLE)).toBe(0);

    // The list keeps it, switched off, after a reload.
    await adminPage.goto('/admin?tab=announce');
    await adminPage.getByRole('row').filter({ hasText: TITLE }).waitFor();
    expect(
      await adminPage
        .getByRole('row')
        .filter({ hasText: TITLE })
        .getByRole('switch', { name: `Active: ${TITLE}` })
        .isChecked(),
    ).toBe(false);
  });
});
