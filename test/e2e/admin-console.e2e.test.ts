import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, browserUnavailableReason } from './browser';
import { browserStackFor, signedInPage } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] admin console journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'console.keeper@example.com';

/** The console as a whole: its title, every tab at rest to axe-core, and an address naming no tab. */
describe.skipIf(unavailable !== undefined)('the admin console in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  let admin: { context: BrowserContext; page: Page };
  beforeAll(async () => {
    admin = await signedInPage(stack(), { email: ADMIN_EMAIL, firstName: 'Kim' });
  });

  it('is titled "Admin Panel", and axe-core finds nothing on any of its tabs', async () => {
    const { page } = admin;
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: 'Admin Panel' }).waitFor();
    await expect.poll(() => page.title()).toBe('Admin Panel | Sniplink');

    const tabs = await page.getByRole('tab').evaluateAll((all) => all.map((tab) => tab.textContent ?? ''));
    expect(tabs).toEqual(
      expect.arrayContaining(['Overview', 'Users', 'Support', 'Announce', 'Config', 'Moderate', 'Premium']),
    );
    const found: Record<string, string[]> = {};
    for (const name of tabs) {
      await page.getByRole('tab', { name, exact: true }).click();
      await page.getByRole('tab', { name, exact: true, selected: true }).waitFor();
      const panel = page.getByRole('tabpanel');
      await panel.waitFor();
      // The tab's content, not its loader.
      // At rest: no loader left, the tab's nor the top bar's (checked mid-load, a loader is not the page).
      await page.locator('[aria-label^="Loading"]').first().waitFor({ state: 'detached' });
      found[name] = await accessibilityViolations(page);
    }
    expect(found).toEqual(Object.fromEntries(tabs.map((name) => [name, []])));
  });

  it('says so when the address names no tab, and opens none under it', async () => {
    const { context, page } = admin;
    await page.goto('/admin?tab=nope');
    const notice = page.getByRole('status').filter({ hasText: 'No such tab' });
    await notice.waitFor();
    expect(await notice.innerText()).toContain('The admin console has no tab named “nope”.');
    expect(new URL(page.url()).search).toBe('?tab=nope');
    expect(await page.getByRole('tab', { selected: true }).count()).toBe(0);
    expect(await page.getByRole('tabpanel').count()).toBe(0);

    // A tab chosen from there opens, and the notice goes.
    await page.getByRole('tab', { name: 'Users', exact: true }).click();
    await page.getByRole('tab', { name: 'Users', selected: true }).waitFor();
    await notice.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('tab')).toBe('users');
    await context.close();
  });
});
