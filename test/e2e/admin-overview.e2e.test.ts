import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] admin Overview journey SKIPPED: ${unavailable}`);

const ADMIN = 'overview-admin@example.com';

/** The admin console's Overview tab on the real app: its three groups of cards, and figures that move. */
describe.skipIf(unavailable !== undefined)('the admin Overview in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN });

  /** What a stat card shows under its label. */
  const statValue = async (page: Page, label: string) =>
    (await page.getByRole('group', { name: label, exact: true }).innerText()).replace(label, '').trim();

  /** The figures of every card, by label, after Refresh has been answered. */
  const figures = async (page: Page) => {
    const labels = [
      'Total Users',
      'Active Subscriptions',
      'Total Links',
      'Total Clicks',
      'Links Created Today',
      'Clicks Today',
      'New Users This Month',
      'Free Users',
      'Pro (paid)',
      'Pro (granted)',
      'Monthly Revenue',
    ];
    return Object.fromEntries(await Promise.all(labels.map(async (l) => [l, await statValue(page, l)])));
  };

  it('opens on the Overview, and its figures move after a user signs up and creates a link', async () => {
    const adminContext = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(adminContext, { email: ADMIN, firstName: 'Ada' });
    const page = await adminContext.newPage();
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Overview', selected: true }).waitFor();
    for (const group of ['Daily Activity', 'Distribution'])
      await page.getByRole('heading', { name: group, level: 2 }).waitFor();
    await page.getByRole('group', { name: 'Total Users', exact: true }).waitFor();
    await page.getByText('“Today” and “this month” are counted in UTC.').waitFor();
    // The admin's own account is the only one so far (the admin-stats projection may lag a moment).
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await expect
      .poll(async () => {
        await refresh.click();
        return statValue(page, 'Total Users');
      })
      .toBe('1');
    expect(await figures(page)).toMatchObject({
      'Total Links': '0',
      'Links Created Today': '0',
      'New Users This Month': '1',
      'Free Users': '1',
      'Pro (paid)': '0',
      'Pro (granted)': '0',
      'Monthly Revenue': '$0.00',
    });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // A visitor's demo link on the landing page: not one of the accounts' links, and said so.
    const visitor = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const demo = await visitor.request.post('/api/demo/shorten', {
      data: { url: 'https://example.com/demo' },
    });
    expect(demo.status(), await demo.text()).toBe(201);
    await visitor.close();
    await expect
      .poll(async () => {
        await refresh.click();
        return page.getByText(/demo links? made on the landing page/).innerText();
      })
      .toBe(
        'Total Links counts the accounts’ links. 1 demo link made on the landing page without an account is not counted.',
      );
    expect(await statValue(page, 'Total Links')).toBe('0');

    // Someone else signs up and makes a link.
    const userContext = await newDesktopContext(stack().browser, stack().app.baseUrl);
    await registerThroughApi(userContext, { email: 'overview-user@example.com', firstName: 'Bo' });
    const made = await userContext.request.post('/api/links', {
      data: { originalUrl: 'https://example.com/menu' },
    });
    expect(made.status()).toBe(201);

    await expect
      .poll(async () => {
        await refresh.click();
        return statValue(page, 'Total Links');
      })
      .toBe('1');
    expect(await figures(page)).toEqual({
      'Total Users': '2',
      'Active Subscriptions': '0',
      'Total Links': '1',
      'Total Clicks': '0',
      'Links Created Today': '1',
      'Clicks Today': '0',
      'New Users This Month': '2',
      'Free Users': '2',
      'Pro (paid)': '0',
      'Pro (granted)': '0',
      'Monthly Revenue': '$0.00',
    });
    // The last 30 days as charts: today's sign-ups and link among them.
    await page.getByRole('heading', { name: 'Last 30 Days', level: 2 }).waitFor();
    await page.getByRole('img', { name: 'Links created: 1 in 30 days' }).waitFor();
    await page.getByRole('img', { name: 'Sign-ups: 2 in 30 days' }).waitFor();
    await page.getByRole('img', { name: 'Clicks: 0 in 30 days' }).waitFor();
    await page.getByRole('img', { name: 'Revenue: $0.00 in 30 days' }).waitFor();
    await userContext.close();
    await adminContext.close();
  });
});
