import { PAYMENTS_DISABLED_MESSAGE } from '@sniplink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { type BrowserStack, registerThroughApi, signedInPage, startBrowserStack } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] payments-off journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'payments.off.admin@example.com';

/** A server with PAYMENTS=off: where Upgrade and Buy would be, the page says purchases are not enabled. */
describe.skipIf(unavailable !== undefined)('a server that sells nothing, in a real browser', () => {
  let stack: BrowserStack;

  beforeAll(async () => {
    stack = await startBrowserStack({ ADMIN_EMAILS: ADMIN_EMAIL, PAYMENTS: 'off' });
    const admin = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(admin, { email: ADMIN_EMAIL, firstName: 'Ada' });
    const added = await admin.request.post('/api/admin/premium-slugs', {
      data: { slug: 'launch' },
      headers: { origin: stack.app.baseUrl },
    });
    expect(added.status(), await added.text()).toBe(201);
    await admin.close();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('/subscribe shows the sentence instead of the plan buttons', async () => {
    const { context, page } = await signedInPage(stack, { email: 'free@example.com', firstName: 'Fay' });
    await page.goto('/subscribe');
    await page.getByText(PAYMENTS_DISABLED_MESSAGE).waitFor();
    expect(await page.getByRole('button', { name: /Choose Pro/ }).count()).toBe(0);
    await context.close();
  });

  it("/marketplace shows the sentence on a slug's card instead of its Purchase or Upgrade button", async () => {
    const { context, page } = await signedInPage(stack, { email: 'buyer@example.com', firstName: 'Bo' });
    await page.goto('/marketplace');
    const card = page.locator('.mantine-Card-root').filter({ hasText: 'launch' });
    await card.getByText(PAYMENTS_DISABLED_MESSAGE).waitFor();
    expect(await card.getByRole('link').count()).toBe(0);
    expect(await card.getByRole('button').count()).toBe(0);
    await context.close();
  });
});
