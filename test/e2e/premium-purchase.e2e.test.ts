import type { BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] premium purchase journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'premium.seller@example.com';

/**
 * Buying a premium slug on the local provider: the marketplace's Purchase button, the checkout page's
 * test card form (its events signed and delivered to the webhook route), and the success page.
 */
describe.skipIf(unavailable !== undefined)('buying a premium slug in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });
  let appUrl: string;
  let accounts = 0;
  let admin: BrowserContext;

  beforeAll(async () => {
    appUrl = stack().app.baseUrl.replace('127.0.0.1', 'localhost');
    admin = await newDesktopContext(stack().browser, appUrl);
    await registerThroughApi(admin, { email: ADMIN_EMAIL, firstName: 'Sal' });
    for (const slug of ['launch', 'menu']) {
      const added = await admin.request.post('/api/admin/premium-slugs', {
        data: { slug },
        headers: { origin: appUrl },
      });
      expect(added.status(), await added.text()).toBe(201);
    }
  });

  async function account(firstName: string): Promise<BrowserContext> {
    const context = await newDesktopContext(stack().browser, appUrl);
    accounts += 1;
    await registerThroughApi(context, { email: `buyer${accounts}@example.com`, firstName });
    return context;
  }

  /** Pro through the local plans checkout, as its Pay button does. */
  async function makePro(context: BrowserContext): Promise<void> {
    const checkout = await context.request.post('/api/create-subscription', {
      data: { plan: 'monthly' },
      headers: { origin: appUrl },
    });
    const { sessionUrl } = (await checkout.json()) as { sessionUrl: string };
    const paid = await context.request.post(`${sessionUrl}/pay`, {
      headers: { origin: appUrl },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);
  }

  it('a Pro user buys a slug from /marketplace on the test card form and sees the success page', async () => {
    const context = await account('Bea');
    await makePro(context);
    const page = await context.newPage();
    await page.goto('/marketplace');
    await page.locator('a[href^="/premium/checkout/"]').filter({ hasText: 'Purchase' }).first().waitFor();
    const links = await page.locator('a[href^="/premium/checkout/"]').evaluateAll((anchors) =>
      anchors.map((anchor) => ({
        href: anchor.getAttribute('href') ?? '',
        card: anchor.closest('.mantine-Card-root')?.textContent ?? '',
      })),
    );
    const launch = links.find((link) => link.card.includes('launch'));
    if (!launch) throw new Error(`no Purchase link for launch: ${JSON.stringify(links)}`);
    await page.locator(`a[href="${launch.href}"]`).click();

    await page.waitForURL((url) => url.pathname === launch.href);
    await expect.poll(() => page.title()).toBe('Premium Slug Checkout | Sniplink');
    await page.getByText('Test payment: no money moves').waitFor();
    const form = (await page.locator('.mantine-Card-root').innerText()).replace(/\s+/g, ' ');
    expect(form).toContain('launch');
    expect(form).toContain('$25.00');
    // Checked at rest: once the top bar's account menu has loaded in place of its spinner.
    await page.getByRole('button', { name: 'Account menu for Bea' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // A declined card: "Payment Failed" with the provider's message; the buyer stays on the form.
    await page.getByRole('button', { name: 'Pay with a declined card' }).click();
    await page.getByText('Payment Failed').waitFor();
    await page.getByText('Your card was declined.').waitFor();

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { name: 'Purchase Successful!' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/premium/success');
    await expect.poll(() => new URL(page.url()).search).toBe('');
    const receipt = (await page.getByRole('table').innerText()).replace(/\s+/g, ' ');
    expect(receipt).toContain('launch');
    expect(receipt).toContain('$25.00');
    expect(receipt).toContain('Complete');
    expect(receipt).toMatch(/Transaction ID pi_\w+/);

    // Sold: no longer offered, and its checkout page says it is unavailable.
    await page.goto('/marketplace');
    await page.locator('a[href^="/premium/checkout/"]').first().waitFor();
    expect(await page.locator(`a[href="${launch.href}"]`).count()).toBe(0);
    await page.goto(launch.href);
    await page.getByText('This premium slug has already been purchased.').waitFor();

    // The console's Premium tab: the bought slug Owned (with its buyer), the other still Available.
    const adminPage = await admin.newPage();
    await adminPage.goto('/admin?tab=premium');
    const slugRow = (slug: string) =>
      adminPage
        .getByRole('table', { name: 'Premium slugs' })
        .getByRole('row')
        .filter({ has: adminPage.getByRole('cell', { name: slug, exact: true }) });
    await slugRow('launch').getByText('Owned', { exact: true }).waitFor();
    expect(await slugRow('launch').getByText('Available', { exact: true }).count()).toBe(0);
    await slugRow('menu').getByText('Available', { exact: true }).waitFor();
    await adminPage.close();

    // Owned: before a target, /s/launch is a friendly page; the dashboard's card and Manage dialog set one.
    await page.goto('/s/launch');
    await page.getByRole('heading', { name: 'This premium link is not set up yet' }).waitFor();
    await page.goto('/home');
    const card = page.getByRole('heading', { name: 'My Premium Slugs' });
    await card.waitFor();
    await page.getByText('No URL assigned').waitFor();
    await page.getByRole('button', { name: 'Manage launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Premium Slug' });
    await dialog.getByLabel('Target URL').fill('http://localhost/admin');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Update Failed').waitFor();
    await dialog.getByLabel('Target URL').fill('https://example.com/launch-day');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Premium Slug Updated').waitFor();
    await page.getByRole('link', { name: 'https://example.com/launch-day' }).waitFor();
    const redirect = await context.request.get('/s/launch', { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers().location).toBe('https://example.com/launch-day');

    // An owner of a premium slug is told, and allowed, one-character codes for their links.
    const made = await context.request.post('/api/links', {
      data: { originalUrl: 'https://example.com/owner-link' },
      headers: { origin: appUrl },
    });
    const { shortCode } = (await made.json()) as { shortCode: string };
    await page.goto('/home');
    await page.getByRole('button', { name: `Edit ${shortCode}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Link' });
    await edit.getByText('1-20 characters: letters, numbers, hyphens, and underscores only').waitFor();
    await edit.getByRole('textbox', { name: 'Short code' }).fill('b');
    await edit.getByText('This short code is available').waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Link updated successfully!').waitFor();
    await page.getByRole('link', { name: /\/s\/b$/ }).waitFor();
    await context.close();
  }, 120_000);

  it('a Free user sees "Upgrade to Pro"; at checkout, "Pro Subscription Required"', async () => {
    const context = await account('Fay');
    const page = await context.newPage();
    await page.goto('/marketplace');
    await page.getByRole('link', { name: 'Upgrade to Pro' }).first().waitFor();
    const slugs = (await (await context.request.get('/api/marketplace/premium-slugs')).json()) as {
      id: string;
    }[];
    const first = slugs[0];
    if (!first) throw new Error('nothing for sale');
    await page.goto(`/premium/checkout/${first.id}`);
    await page.getByText('Pro Subscription Required').waitFor();
    await page.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    await page.goto('/premium/checkout/01890000-0000-7000-8000-0000000000ff');
    await page.getByText('Premium Slug Not Found').waitFor();
    await context.close();
  }, 60_000);
});
