import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] signed-in shell journey SKIPPED: ${unavailable}`);

const ADMIN = 'shell-admin@example.com';

/** The header's navigation and the place it marks as current. */
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const currentPlace = async (page: Page) =>
  (await mainNav(page).locator('[aria-current="page"]').allInnerTexts()).map((text) => text.trim());

/** Left edge and width of what a selector finds, in CSS pixels. */
async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return found;
}

describe.skipIf(unavailable !== undefined)('the signed-in shell in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN });

  it('gives every signed-in page one header with the places, the current one marked, and the same width', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(context, { email: ADMIN, firstName: 'Ada' });
    const page = await context.newPage();
    const places = [
      { path: '/home', current: 'Dashboard', heading: /Ada/ },
      { path: '/marketplace', current: 'Marketplace', heading: 'Premium Slugs' },
      { path: '/home?support=open', current: 'Support', heading: /Ada/ },
      { path: '/profile', current: null, heading: 'Profile Settings' },
      { path: '/admin', current: 'Admin', heading: 'Admin Panel' },
    ];
    for (const place of places) {
      await page.goto(place.path);
      await page.getByRole('heading', { level: 1, name: place.heading }).first().waitFor();
      await mainNav(page).getByRole('link', { name: 'Admin' }).waitFor();
      expect(
        (await mainNav(page).getByRole('link').allInnerTexts()).map((text) => text.trim()),
        place.path,
      ).toEqual(['Dashboard', 'Marketplace', 'Support', 'Admin']);
      expect(await currentPlace(page), place.path).toEqual(place.current ? [place.current] : []);
      expect(await page.getByRole('banner').count(), place.path).toBe(1);
      // The page's title starts where the brand name does, and nothing is wider than the header's content.
      const brand = await box(page, 'header a[href="/"]');
      const title = await box(page, 'main h1');
      expect(Math.abs(title.x - brand.x), place.path).toBeLessThanOrEqual(1);
      const content = await box(page, 'main .mantine-Container-root');
      const header = await box(page, 'header .mantine-Container-root');
      expect(content.width, place.path).toBeLessThanOrEqual(header.width + 1);
    }
    // Support is a place of its own: the dialog is open at its address.
    await page.goto('/home?support=open');
    await page.getByRole('dialog', { name: 'Support Center' }).waitFor();
    // One Logout, in the avatar menu: the admin console has none of its own.
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: 'Admin Panel' }).waitFor();
    expect(await page.getByText('Logout', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Account menu for Ada' }).click();
    const menu = page.getByRole('menu');
    expect((await menu.getByRole('menuitem').allInnerTexts()).map((text) => text.trim())).toEqual([
      'Profile Settings',
      'Logout',
    ]);
    await context.close();
  });

  it('moves between places in the header, and a non-admin has no Admin place', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(context, { email: 'shell-user@example.com', firstName: 'Bo' });
    const page = await context.newPage();
    await page.goto('/home');
    await mainNav(page).getByRole('link', { name: 'Marketplace' }).click();
    await page.waitForURL((url) => url.pathname === '/marketplace');
    expect(await currentPlace(page)).toEqual(['Marketplace']);
    await mainNav(page).getByRole('link', { name: 'Support' }).click();
    await page.getByRole('dialog', { name: 'Support Center' }).waitFor();
    expect(new URL(page.url()).searchParams.get('support')).toBe('open');
    expect(await currentPlace(page)).toEqual(['Support']);
    expect((await mainNav(page).getByRole('link').allInnerTexts()).map((text) => text.trim())).toEqual([
      'Dashboard',
      'Marketplace',
      'Support',
    ]);
    await context.close();
  });

  it('puts the places behind a menu button on a phone', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(context, { email: 'shell-phone@example.com', firstName: 'Cy' });
    const page = await context.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile Settings' }).waitFor();
    expect(await mainNav(page).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name: 'Marketplace' }).click();
    await page.waitForURL((url) => url.pathname === '/marketplace');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(
      (await drawer.locator('[aria-current="page"]').allInnerTexts()).map((text) => text.trim()),
    ).toEqual(['Marketplace']);
    await context.close();
  });
});
