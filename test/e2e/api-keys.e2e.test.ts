import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, signedInPage, signedUpContext, startBrowserStack, toastText } from './harness';

const ADMIN = 'keys.admin@example.com';
const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] API keys journey SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('API keys in Profile, in a real browser', () => {
  let stack: BrowserStack;
  beforeAll(async () => {
    stack = await startBrowserStack({ ADMIN_EMAILS: ADMIN });
  });
  afterAll(() => stack?.stop());

  it('creates a key, shows it once, which a script can use, then revokes it', async () => {
    const { context, page } = await signedInPage(stack, { email: 'ada.keys@example.com', firstName: 'Ada' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/profile');
    const card = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'API keys', level: 2 }),
    });
    await card.getByText('No API keys yet').waitFor();

    await card.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    const form = dialog.getByRole('form', { name: 'Create API key' });
    // No name: said on the field, nothing sent.
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.getByText('Give the key a name').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill('Deploy script');
    await form.getByRole('checkbox', { name: /links:write/ }).check();
    await form.getByRole('checkbox', { name: /links:read/ }).uncheck();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create key' }).click();

    await dialog.getByText("You won't see it again").waitFor();
    const secret = (await dialog.getByLabel('Your new API key').innerText()).trim();
    expect(secret).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    await dialog.getByRole('button', { name: 'Copy API key' }).click();
    await toastText(page, 'Copied!');
    const clipboard = () =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText();
    expect(await page.evaluate(clipboard)).toBe(secret);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Listed with its hint, never its secret, and still so after a reload.
    const row = card.getByRole('row').filter({ hasText: 'Deploy script' });
    await row.getByText('links:write').waitFor();
    await row.getByText(`sk_live_${secret.slice(8, 12)}…${secret.slice(-4)}`).waitFor();
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    // The key works for a script, without the browser's cookie.
    const script = () =>
      fetch(`${stack.app.baseUrl}/api/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ originalUrl: 'https://example.com/from-a-script' }),
      });
    expect((await script()).status).toBe(201);

    await row.getByRole('button', { name: 'Revoke Deploy script' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
    await confirm.getByText('Every script or app using it is refused').waitFor();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await toastText(page, 'API key revoked');
    await card.getByText('No API keys yet').waitFor();
    expect((await script()).status).toBe(401);
    await context.close();
  });

  it("lets an admin see a user's keys in the user view, never the secret, and revoke one", async () => {
    const member = await signedUpContext(stack, { email: 'lin.keys@example.com', firstName: 'Lin' });
    const made = await member.request.post('/api/api-keys', {
      data: { name: 'Newsletter CMS', scopes: ['links:read', 'analytics:read'] },
    });
    const { secret } = (await made.json()) as { secret: string };
    const admin = await signedUpContext(stack, { email: ADMIN, firstName: 'Ada' });
    const page = await admin.newPage();
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('textbox', { name: 'Search users' }).fill('lin.keys');
    const row = page.getByRole('table').getByRole('row').filter({ hasText: 'lin.keys@example.com' });
    await row.getByRole('button', { name: 'View lin.keys@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'User details' });
    const key = dialog.getByRole('row').filter({ hasText: 'Newsletter CMS' });
    await key.getByText('analytics:read').waitFor();
    expect(await dialog.innerText()).not.toContain(secret);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await key.getByRole('button', { name: 'Revoke Newsletter CMS' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke API key' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await toastText(page, 'API key revoked');
    await dialog.getByText('No API keys.').waitFor();
    const call = await fetch(`${stack.app.baseUrl}/api/links`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(call.status).toBe(401);
    await admin.close();
    await member.close();
  });
});
