import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { browserStackFor, registerThroughApi, toastText, toastTitled } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] plans and payments journeys SKIPPED: ${unavailable}`);

/**
 * The whole local flow: /subscribe, the built-in test checkout at /pay/local/… (the default provider when no
 * Stripe key is set: it signs its events and delivers them to the webhook route Stripe would call), and
 * back. Without PUBLIC_URL the app names itself http://localhost:PORT in its log and the checkout's return
 * addresses, so the browser uses that origin throughout and keeps its session cookie across the round trip.
 */
describe.skipIf(unavailable !== undefined)('plans and payments in a real browser', () => {
  const stack = browserStackFor();
  let appUrl: string;
  let accounts = 0;

  beforeAll(async () => {
    appUrl = stack().app.baseUrl.replace('127.0.0.1', 'localhost');
  });

  async function freeAccount(firstName: string): Promise<BrowserContext> {
    const context = await newDesktopContext(stack().browser, appUrl);
    accounts += 1;
    await registerThroughApi(context, { email: `payer${accounts}@example.com`, firstName });
    return context;
  }

  async function subscriptionOf(context: BrowserContext) {
    const response = await context.request.get('/api/auth/user');
    const user = (await response.json()) as { subscriptionStatus: string; subscriptionPlan: string | null };
    return { status: user.subscriptionStatus, plan: user.subscriptionPlan };
  }

  /** The figure a stat card shows under its label, without the line below it. */
  const statValue = async (page: Page, label: string) =>
    (await page.getByRole('group', { name: label }).innerText()).replace(label, '').trim().split('\n')[0];

  const addressQuery = (page: Page) => new URL(page.url()).search;

  it('takes a Free user from Upgrade through the test checkout to Pro with 500 links a month', async () => {
    const context = await freeAccount('Paula');
    const made = await context.request.post('/api/links', {
      data: { originalUrl: 'https://example.com/menu' },
    });
    expect(made.status()).toBe(201);
    const page = await context.newPage();
    await page.goto('/home');
    const greeting = page.getByRole('heading', { level: 1 }).locator('..');
    await greeting.getByText('Free', { exact: true }).waitFor();

    // The dashboard's Upgrade button leads to the plans.
    await page.getByRole('link', { name: 'Upgrade', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/subscribe');
    await page.getByRole('heading', { name: 'Choose Your Plan', level: 1 }).waitFor();
    await expect.poll(() => page.title()).toBe('Choose Your Plan | Sniplink');
    const monthlyCard = page.getByRole('region', { name: 'Pro Monthly' });
    const yearlyCard = page.getByRole('region', { name: 'Pro Yearly' });
    expect((await monthlyCard.innerText()).replace(/\s+/g, ' ')).toContain('$2 /month');
    const yearly = (await yearlyCard.innerText()).replace(/\s+/g, ' ');
    for (const text of ['$20 /year', '$24', 'Save $4', 'two months free']) expect(yearly).toContain(text);
    const comparison = (await page.getByRole('table').innerText()).replace(/\s+/g, ' ');
    expect(comparison).toContain('5 links at a time');
    expect(comparison).toContain('500 links a month');
    await page.getByRole('link', { name: 'Back to Dashboard' }).waitFor();
    // Checked at rest: once the top bar's account menu has loaded in place of its spinner.
    await page.getByRole('button', { name: 'Account menu for Paula' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Creating, then a second's pause before the checkout: the chosen button busy, the other disabled.
    const chooseMonthly = monthlyCard.getByRole('button', { name: 'Choose Pro Monthly' });
    await chooseMonthly.click();
    await page.getByRole('status').filter({ hasText: 'Redirecting to checkout...' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/subscribe');
    expect(await chooseMonthly.getAttribute('data-loading')).toBe('true');
    expect(await yearlyCard.getByRole('button', { name: 'Choose Pro Yearly' }).isDisabled()).toBe(true);

    // The test checkout: labelled, and paid with its Pay button.
    await page.waitForURL((url) => url.pathname.startsWith('/pay/local/'));
    const sessionId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByText('Test payment: no money moves').first().waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    // Back on /subscribe: the success screen, the provider's query cleaned off the address.
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/subscribe');
    await expect.poll(() => addressQuery(page)).toBe('');
    expect(await subscriptionOf(context)).toEqual({ status: 'active', plan: 'monthly' });

    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/home');
    await greeting.getByText('Pro', { exact: true }).waitFor();
    await expect.poll(() => statValue(page, 'Created This Month')).toBe('1');
    await expect.poll(() => statValue(page, 'Links Remaining')).toBe('499');
    expect(await page.getByRole('link', { name: 'Upgrade', exact: true }).count()).toBe(0);

    // The profile: the plan, its renewal, the allowance as the dashboard counts it, and Manage billing.
    await page.goto('/profile');
    const account = page.getByRole('heading', { name: 'Account' }).locator('..');
    await account.getByText('Pro Monthly', { exact: true }).waitFor();
    const facts = (await account.innerText()).replace(/\s+/g, ' ');
    expect(facts).toMatch(/Status Pro, renews on \w+ \d{1,2}(, \d{4})?/);
    expect(facts).toContain('Created this month 1 / 500');
    expect(await account.getByRole('link', { name: 'Upgrade to Pro' }).count()).toBe(0);
    await account.getByRole('button', { name: 'Manage billing' }).waitFor();

    // Pro already: choosing again starts no checkout.
    await page.goto('/subscribe');
    await page.getByRole('button', { name: 'Choose Pro Yearly' }).click();
    expect(await toastText(page, 'Already Subscribed')).toBe(
      'Already Subscribed You already have an active subscription',
    );
    expect(new URL(page.url()).pathname).toBe('/subscribe');

    // The provider may also come back to /home: a toast once the server confirms it, the address cleaned.
    await page.goto(`/home?payment=success&session_id=${sessionId}`);
    await toastText(page, 'Payment Successful!');
    await expect.poll(() => addressQuery(page)).toBe('');
    await context.close();
  }, 60_000);

  it('never tells a Free user who typed a success address that they paid', async () => {
    const context = await freeAccount('Fiona');
    const page = await context.newPage();
    await page.goto('/home?payment=success&session_id=cs_test_fake');
    expect(await toastText(page, 'Payment Not Confirmed')).toBe(
      'Payment Not Confirmed We could not confirm this payment. Your plan has not changed.',
    );
    await expect.poll(() => addressQuery(page)).toBe('');
    await page.getByRole('heading', { level: 1 }).locator('..').getByText('Free', { exact: true }).waitFor();
    expect(await toastTitled(page, 'Payment Successful!').count()).toBe(0);

    // Nor /subscribe: no success screen, the plans offered again.
    await page.goto('/subscribe?payment=success&session_id=cs_test_fake');
    await toastTitled(page, 'Payment Not Confirmed').waitFor();
    await page.getByRole('button', { name: 'Choose Pro Monthly' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Payment Successful!' }).count()).toBe(0);
    await expect.poll(() => addressQuery(page)).toBe('');
    expect(await subscriptionOf(context)).toEqual({ status: 'inactive', plan: null });
    await context.close();
  }, 60_000);

  it('keeps a declined card Free, and a cancelled checkout says so and cleans the address', async () => {
    const context = await freeAccount('Dora');
    const page = await context.newPage();
    await page.goto('/subscribe');
    await page.getByRole('button', { name: 'Choose Pro Yearly' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/pay/local/'), { timeout: 15_000 });
    await page.getByText('Test payment: no money moves').first().waitFor();

    // Declined: the checkout says so and keeps the buyer on its page; nothing is bought.
    await page.getByRole('button', { name: 'Pay with a declined card' }).click();
    await page.getByText('Your card was declined.').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/pay\/local\//);
    expect(await subscriptionOf(context)).toEqual({ status: 'inactive', plan: null });

    // Cancel: back on /subscribe with the destructive toast, the query gone, the plans offered again.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/subscribe');
    expect(await toastText(page, 'Payment Canceled')).toBe(
      'Payment Canceled Your payment was canceled. You can try again anytime.',
    );
    await expect.poll(() => addressQuery(page)).toBe('');
    expect(await page.getByRole('button', { name: 'Choose Pro Monthly' }).isEnabled()).toBe(true);

    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).locator('..').getByText('Free', { exact: true }).waitFor();
    await expect.poll(() => statValue(page, 'Links Remaining')).toBe('5');
    await page.goto('/profile');
    const account = page.getByRole('heading', { name: 'Account' }).locator('..');
    expect((await account.innerText()).replace(/\s+/g, ' ')).toContain('Links held 0 / 5');
    await account.getByRole('link', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL((url) => url.pathname === '/subscribe');
    await context.close();
  }, 60_000);

  it('Manage billing: a failed payment keeps Pro with a warning, a period ended makes the user Free, links still redirect', async () => {
    const context = await freeAccount('Mona');
    const page = await context.newPage();
    await page.goto('/subscribe');
    await page.getByRole('button', { name: 'Choose Pro Monthly' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/pay/local/'), { timeout: 15_000 });
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    const made = await context.request.post('/api/links', {
      data: { originalUrl: 'https://example.com/kept' },
    });
    const { shortUrl } = (await made.json()) as { shortUrl: string };

    const openPortal = async () => {
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Manage billing' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/pay/local/portal/'));
      await page.getByText('Test payment: no money moves').first().waitFor();
    };

    // The next payment fails: still Pro until the period ends, and the dashboard asks for a new card.
    await openPortal();
    await page.getByRole('button', { name: 'Fail the next payment' }).click();
    await page.getByText(/The last payment failed/).waitFor();
    await page.goto('/home');
    await page.getByText('Payment failed: update your card').waitFor();
    expect(await subscriptionOf(context)).toEqual({ status: 'active', plan: 'monthly' });

    // Cancelled at the period's end: the profile says when it ends.
    await openPortal();
    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.getByRole('link', { name: 'Back to Sniplink' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    const account = page.getByRole('heading', { name: 'Account' }).locator('..');
    await account.getByText(/Pro until \w+ \d{1,2}(, \d{4})?/).waitFor();

    // The period ends now: Free again, the link kept and still redirecting.
    await openPortal();
    await page.getByRole('button', { name: 'End the period now' }).click();
    await page.getByRole('link', { name: 'Back to Sniplink' }).waitFor();
    await expect.poll(() => subscriptionOf(context)).toEqual({ status: 'inactive', plan: null });
    await page.goto('/profile');
    await account.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    const follow = await fetch(shortUrl.replace('localhost', '127.0.0.1'), { redirect: 'manual' });
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('https://example.com/kept');
    await context.close();
  }, 60_000);

  it("leads a visitor from the landing page's pricing to the plans, and to sign in before choosing", async () => {
    const context = await newDesktopContext(stack().browser, appUrl);
    const page = await context.newPage();
    await page.goto('/');
    // Clicked before the app has taken over the server's page, the link is a plain one and the browser
    // loads /subscribe whole: on a busy machine its load event can come late, and the heading below is
    // what the visitor waits for.
    await page.locator('#pricing').getByRole('link', { name: 'Go Pro' }).click();
    await page.waitForURL((url) => url.pathname === '/subscribe', { waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'Choose Your Plan', level: 1 }).waitFor();

    const checkoutCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/create-subscription') checkoutCalls.push(request.url());
    });
    await page.getByRole('button', { name: 'Choose Pro Monthly' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe('/subscribe');
    expect(checkoutCalls).toEqual([]);
    await context.close();
  });

  it("cleans a cancelled checkout's query off /subscribe for a visitor too", async () => {
    const context = await newDesktopContext(stack().browser, appUrl);
    const page = await context.newPage();
    await page.goto('/subscribe?payment=canceled');
    expect(await toastText(page, 'Payment Canceled')).toBe(
      'Payment Canceled Your payment was canceled. You can try again anytime.',
    );
    await expect.poll(() => addressQuery(page)).toBe('');
    await page.getByRole('button', { name: 'Choose Pro Monthly' }).waitFor();
    await context.close();
  });
});
