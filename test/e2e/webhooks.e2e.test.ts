import { until } from '@sniplink/test-support/until';
import { startWebhookReceiver, type WebhookReceiver } from '@sniplink/test-support/webhook-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../services/api/src/webhooks/signing';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, signedInPage, signedUpContext, startBrowserStack, toastText } from './harness';

const ADMIN = 'hooks.admin@example.com';
const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] webhooks journey SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('Webhooks in Profile, in a real browser', () => {
  let stack: BrowserStack;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    stack = await startBrowserStack({ ADMIN_EMAILS: ADMIN });
    receiver = await startWebhookReceiver();
    // The receiver is on 127.0.0.1: the operator allows private endpoints.
    const admin = await signedUpContext(stack, { email: ADMIN, firstName: 'Ada' });
    const set = await admin.request.post('/api/admin/config', {
      data: { key: 'webhooks.allow_private', value: '1' },
    });
    expect(set.status()).toBe(201);
    await admin.close();
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('creates an API key and a webhook; a link made with the key reaches the receiver, signed, and shows in the log', async () => {
    const { context, page } = await signedInPage(stack, { email: 'ada.hooks@example.com', firstName: 'Ada' });
    await page.goto('/profile');

    const keys = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'API keys', level: 2 }),
    });
    await keys.getByRole('button', { name: 'Create API key' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'Create API key' });
    await keyDialog.getByRole('textbox', { name: 'Name' }).fill('CMS');
    await keyDialog.getByRole('checkbox', { name: /links:write/ }).check();
    await keyDialog.getByRole('button', { name: 'Create key' }).click();
    const apiKey = (await keyDialog.getByLabel('Your new API key').innerText()).trim();
    await keyDialog.getByRole('button', { name: 'Done' }).click();

    const hooks = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'Webhooks', level: 2 }),
    });
    await hooks.getByText('No webhooks yet').waitFor();
    await hooks.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create webhook' });
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
    await dialog.getByRole('checkbox', { name: /link\.clicked/ }).check();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await dialog.getByLabel('Your webhook signing secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await hooks.getByText(receiver.url).waitFor();
    await page.reload();
    await hooks.getByText('link.created, link.clicked').waitFor();
    expect(await page.content()).not.toContain(secret);

    const made = await fetch(`${stack.app.baseUrl}/api/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ originalUrl: 'https://example.com' }),
    });
    expect(made.status).toBe(201);
    const received = await until(
      async () => receiver.received.filter((delivery) => delivery.json.type === 'link.created'),
      (found) => found.length > 0,
      5_000,
    );
    const [delivery] = received;
    expect(delivery?.json.data.originalUrl).toBe('https://example.com/');
    expect(
      verifySignature(secret, delivery?.body ?? '', String(delivery?.headers['sniplink-signature'])),
    ).toBe(true);

    await hooks.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click();
    const details = page.getByRole('dialog', { name: 'Webhook deliveries' });
    const log = details.getByRole('table', { name: 'Delivery log' });
    await log.getByRole('row').filter({ hasText: 'link.created' }).getByText('200').waitFor();
    await details.getByRole('button', { name: 'Send test event' }).click();
    await toastText(page, 'Test event sent');
    await log.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('200').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
