import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserUnavailableReason,
  chromiumPath,
  desktopChromeUserAgent,
  seriousAccessibilityViolations,
} from './browser';
import { browserStackFor, signedUpContext, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] link controls journey SKIPPED: ${unavailable}`);

/** A public-looking target the API accepts; the visitor's browser resolves it to the local shop below. */
const shopHost = 'shop.example.com';
const operator = 'ops@example.com';

/** The shop the short link leads to: a page that says which address it was asked for. */
async function startShop(): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Shop</title><h1>Welcome to the shop</h1><p id="asked">${request.url}</p>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe.skipIf(unavailable !== undefined)('link controls from the dashboard to a visitor', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: operator });
  let shop: { server: Server; port: number };
  /** A browser of its own for the signed-out visitor, where the shop's host name leads to the local shop. */
  let visitorBrowser: Browser;

  beforeAll(async () => {
    shop = await startShop();
    visitorBrowser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--host-resolver-rules=MAP ${shopHost} 127.0.0.1:${shop.port}`,
      ],
    });
  });
  afterAll(async () => {
    await visitorBrowser?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
  });

  const visitorPage = async (): Promise<Page> => {
    const context = await visitorBrowser.newContext({ userAgent: desktopChromeUserAgent, locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    return context.newPage();
  };

  it('creates a protected, tagged, expiring link with UTM parameters; a visitor needs the password; a pause stops it', async () => {
    const context = await signedUpContext(stack(), { email: 'mara@example.com', firstName: 'Mara' });
    const other = await context.request.post('/api/links', {
      data: { originalUrl: 'https://example.org/winter', title: 'Winter', tags: ['winter'], maxClicks: 10 },
    });
    expect(other.status()).toBe(201);
    const page = await context.newPage();
    await page.goto('/home');

    const create = page.getByRole('form', { name: 'Create New Short Link' });
    await create.getByRole('textbox', { name: 'Long URL' }).fill(`http://${shopHost}/spring?ref=mail`);
    await create.getByRole('textbox', { name: 'Title (optional)' }).fill('Spring sale');
    await create.getByRole('button', { name: 'More options' }).click();
    await create.getByRole('textbox', { name: 'UTM source' }).fill('newsletter');
    await create.getByRole('textbox', { name: 'UTM medium' }).fill('email');
    await create.getByRole('textbox', { name: 'UTM campaign' }).fill('spring sale');
    const target = `http://${shopHost}/spring?ref=mail&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale`;
    await create.getByText(`Visitors go to: ${target}`).waitFor();
    await create.getByLabel('Password (optional)').fill('open sesame');
    const tags = create.getByLabel('Tags', { exact: true });
    await tags.fill('Sales');
    await tags.press('Enter');
    await tags.fill('q4');
    await tags.press('Enter');
    await create.getByRole('button', { name: 'Expires' }).click();
    await page.getByRole('button', { name: 'In 7 days' }).click();
    await page.getByRole('button', { name: 'Set expiry' }).click();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await create.getByRole('button', { name: 'Shorten' }).click();
    const shortUrl = (await toastText(page, 'Link created successfully!'))
      .replace('Link created successfully!', '')
      .trim();
    expect(shortUrl).toMatch(/\/s\/[a-z0-9]+$/);

    // The card says what a visitor will meet, and carries the tags as stored.
    const card = page.getByRole('article', { name: 'Spring sale' });
    await card.getByText(target).waitFor();
    for (const note of ['Expires in 7 days', 'Password', 'sales', 'q4'])
      await card.getByText(note, { exact: true }).waitFor();

    await page.getByRole('article', { name: 'Winter' }).getByText('10 of 10 clicks left').waitFor();

    // Filtered by a tag, with its count, kept in the address over a reload.
    const filter = page.getByRole('combobox', { name: 'Filter by tag' });
    await filter.selectOption({ label: 'sales (1)' });
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('tag')).toBe('sales');
    await page.reload();
    await card.waitFor();
    expect(await page.getByRole('article', { name: 'Winter' }).count()).toBe(0);
    expect(await filter.inputValue()).toBe('sales');

    // A visitor, signed out in a browser of their own: the password first, then the shop with the campaign.
    const visitor = await visitorPage();
    await visitor.goto(shortUrl);
    await visitor.getByRole('heading', { name: 'This link is password protected' }).waitFor();
    await visitor.getByLabel('Password').fill('open says me');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await visitor.getByText('That password is not right. Try again.').waitFor();
    // The right one leads on to the shop with the campaign parameters.
    await visitor.getByLabel('Password').fill('open sesame');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await visitor.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
    expect(visitor.url()).toBe(target);
    // The right password is remembered: the next visit lands on the shop with the campaign parameters.
    await visitor.goto(shortUrl);
    await visitor.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
    expect(visitor.url()).toBe(target);

    // Paused from its card: the visitor meets the paused page.
    await card.getByRole('button', { name: /^Pause / }).click();
    expect(await toastText(page, 'Link paused')).toContain('/s/');
    await card.getByText('Paused', { exact: true }).waitFor();
    await visitor.goto(shortUrl);
    await visitor.getByRole('heading', { name: 'This link is paused' }).waitFor();
    await card.getByRole('button', { name: /^Resume / }).click();
    expect(await toastText(page, 'Link resumed')).toContain('/s/');
    await visitor.goto(shortUrl);
    await visitor.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
    await card.getByRole('button', { name: /^Pause / }).click();
    await card.getByText('Paused', { exact: true }).waitFor();

    // The edit dialog shows the campaign in the builder and never the password.
    await card.getByRole('button', { name: /^Edit / }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Link' });
    expect(await dialog.getByRole('textbox', { name: 'Original URL' }).inputValue()).toBe(
      `http://${shopHost}/spring?ref=mail`,
    );
    expect(await dialog.getByRole('textbox', { name: 'UTM campaign' }).inputValue()).toBe('spring sale');
    await dialog.getByText('Password set').waitFor();
    expect(await dialog.getByRole('switch', { name: 'Pause link' }).isChecked()).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await visitor.context().close();
    await context.close();
  }, 60_000);

  it("says the server's refusal on its field, and a control kept for Pro as the upgrade it asks for", async () => {
    const admin = await signedUpContext(stack(), { email: operator, firstName: 'Otto' });
    const kept = await admin.request.post('/api/admin/config', {
      data: { key: 'links.password.pro_only', value: '1' },
    });
    expect(kept.ok()).toBe(true);
    const context = await signedUpContext(stack(), { email: 'free@example.com', firstName: 'Fay' });
    const page = await context.newPage();
    await page.goto('/home');
    const create = page.getByRole('form', { name: 'Create New Short Link' });
    await create.getByRole('textbox', { name: 'Long URL' }).fill('https://example.com/offer');
    await create.getByRole('button', { name: 'More options' }).click();

    // A fallback the server will not send visitors to: said on the field, in its words.
    const fallback = create.getByRole('textbox', { name: 'Fallback URL' });
    await fallback.fill('http://localhost/offer-ended');
    await create.getByRole('button', { name: 'Shorten' }).click();
    await create.getByText('This URL does not point to a public website').waitFor();
    expect(await fallback.getAttribute('aria-invalid')).toBe('true');
    await fallback.fill('');

    await create.getByLabel('Password (optional)').fill('members only');
    await create.getByRole('button', { name: 'Shorten' }).click();
    expect(await toastText(page, 'Upgrade to Pro')).toBe(
      'Upgrade to Pro Password-protected links are available on Pro accounts. Upgrade to Pro to use them.',
    );
    expect(await page.getByRole('article').count()).toBe(0);
    await admin.close();
    await context.close();
  }, 40_000);

  it('adds a targeting rule under More options: a French-speaking visitor goes to its URL, others to the target', async () => {
    const context = await signedUpContext(stack(), { email: 'theo@example.com', firstName: 'Theo' });
    const page = await context.newPage();
    await page.goto('/home');
    const create = page.getByRole('form', { name: 'Create New Short Link' });
    await create.getByRole('textbox', { name: 'Long URL' }).fill(`http://${shopHost}/en`);
    await create.getByRole('textbox', { name: 'Title (optional)' }).fill('Localised');
    await create.getByRole('button', { name: 'More options' }).click();
    // The expiry's calendar loads on its own: once it is in, the options stop moving under the pointer.
    await create.getByRole('button', { name: 'Expires' }).waitFor();
    await create.getByRole('button', { name: 'Add targeting rule' }).click();
    await create.getByRole('textbox', { name: 'Rule 1 URL' }).waitFor();
    await create.getByLabel('Rule 1 condition 1 type').click();
    await page.getByRole('option', { name: 'Language' }).click();
    const languages = create.getByLabel('Rule 1 condition 1 values');
    await languages.fill('FR');
    await languages.press('Enter');
    const ruleUrl = create.getByRole('textbox', { name: 'Rule 1 URL' });
    // A URL the server refuses: its words land on the rule's field.
    await ruleUrl.fill('http://localhost/fr');
    await create.getByRole('button', { name: 'Shorten' }).click();
    await create.getByText('This URL does not point to a public website').waitFor();
    expect(await ruleUrl.getAttribute('aria-invalid')).toBe('true');
    await ruleUrl.fill(`http://${shopHost}/fr`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await create.getByRole('button', { name: 'Shorten' }).click();
    const shortUrl = (await toastText(page, 'Link created successfully!'))
      .replace('Link created successfully!', '')
      .trim();
    const card = page.getByRole('article', { name: 'Localised' });
    await card.getByText('1 targeting rule', { exact: true }).waitFor();

    const french = await visitorBrowser.newContext({ userAgent: desktopChromeUserAgent, locale: 'fr-FR' });
    const frenchPage = await french.newPage();
    await frenchPage.goto(shortUrl);
    await frenchPage.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
    expect(frenchPage.url()).toBe(`http://${shopHost}/fr`);
    const visitor = await visitorPage();
    await visitor.goto(shortUrl);
    await visitor.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
    expect(visitor.url()).toBe(`http://${shopHost}/en`);

    // Removed in the edit dialog: everyone goes to the target.
    await card.getByRole('button', { name: /^Edit / }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Link' });
    // A link with rules opens the dialog with More options unfolded.
    await dialog.getByRole('button', { name: 'Remove rule 1' }).click();
    await dialog.getByRole('button', { name: /^Save/ }).click();
    await expect.poll(() => card.getByText('1 targeting rule', { exact: true }).count()).toBe(0);
    await frenchPage.goto(shortUrl);
    await frenchPage.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
    expect(frenchPage.url()).toBe(`http://${shopHost}/en`);
    await french.close();
    await visitor.context().close();
    await context.close();
  }, 60_000);
});
