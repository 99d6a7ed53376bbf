import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browserUnavailableReason,
  desktopChromeUserAgent,
  newDesktopContext,
  seriousAccessibilityViolations,
} from './browser';
import { browserStackFor, registerThroughApi, toastText, toastTitled } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] dashboard journeys SKIPPED: ${unavailable}`);

interface ApiLink {
  id: string;
  shortCode: string;
  shortUrl: string;
  originalUrl: string;
}

/** An iPhone's Safari: the redirect counts it as a person on a mobile device. */
const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const publicUrl = 'http://links.greenfieldcommunitybakery.example';

describe.skipIf(unavailable !== undefined)('the dashboard in a real browser', () => {
  // Short URLs read as on a real, rather long domain (the app itself is reached on the loopback), and
  // X-Forwarded-For is trusted so that the clicks below can come from real countries' addresses.
  const stack = browserStackFor({ TRUST_PROXY: '1', PUBLIC_URL: publicUrl });
  let accounts = 0;

  /** A signed-in desktop browser of a fresh Free account. */
  async function signedInContext(firstName?: string): Promise<BrowserContext> {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    accounts += 1;
    await registerThroughApi(context, { email: `user${accounts}@example.com`, firstName });
    return context;
  }

  async function createThroughApi(context: BrowserContext, originalUrl: string): Promise<ApiLink> {
    const response = await context.request.post('/api/links', { data: { originalUrl } });
    if (!response.ok()) throw new Error(`create: ${response.status()} ${await response.text()}`);
    return (await response.json()) as ApiLink;
  }

  /** The card of the link with this target; cards are articles named after the title or short URL. */
  const cardOf = (page: Page, originalUrl: string) =>
    page.getByRole('article').filter({ hasText: originalUrl });

  /** The figure a stat card shows under its label ("–" while loading), without the line below it. */
  const statValue = async (page: Page, label: string) =>
    (await page.getByRole('group', { name: label }).innerText()).replace(label, '').trim().split('\n')[0];

  it('claims the demo links into the account a visitor creates, first name left out', async () => {
    const context = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    const demo = page.locator('#demo');
    const targets = ['https://example.com/bakery/opening-hours', 'https://example.org/menu/summer'];
    for (const target of targets) {
      await demo.getByLabel('Long URL').fill(target);
      await demo.getByRole('button', { name: 'Shorten' }).click();
      await demo.getByText(target).first().waitFor();
    }
    await demo.getByRole('link', { name: 'Start Free Account' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('tab', { name: 'Create account' }).click();
    const form = page.getByRole('form', { name: 'Create account' });
    // The server keeps names optional (the display name falls back to the e-mail).
    await form.getByLabel('E-mail').fill('grace.hopper@example.com');
    await form.locator('input[type="password"]').fill('a long enough password');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Account menu for Grace.hopper' }).waitFor();

    await page.goto('/home');
    await page.getByRole('heading', { name: 'Your Links', exact: true }).waitFor();
    for (const target of targets) await cardOf(page, target).waitFor();
    expect(await page.getByRole('article').count()).toBe(2);
    await expect.poll(() => statValue(page, 'Total Links')).toBe('2');
    await expect.poll(() => statValue(page, 'Links Remaining')).toBe('3');
    await context.close();
  });

  it('creates, edits with a custom short code, duplicates and deletes links', async () => {
    const context = await signedInContext('Edith');
    const other = await createThroughApi(context, 'https://example.com/other-shop');
    const page = await context.newPage();
    await page.goto('/home');

    // Create: a scheme other than http(s) is refused on the field itself, before any call, no toast.
    const create = page.getByRole('form', { name: 'Create New Short Link' });
    const longUrl = create.getByRole('textbox', { name: 'Long URL' });
    await longUrl.fill('ftp://example.com/files');
    await create.getByRole('button', { name: 'Shorten' }).click();
    await create.getByText('Only http and https URLs can be shortened').waitFor();
    expect(await longUrl.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);

    // An address typed without a scheme, with spaces around it, gets https://.
    const target = 'https://example.com/spring-sale';
    await longUrl.fill('  example.com/spring-sale ');
    await create.getByRole('button', { name: 'Shorten' }).click();
    await toastText(page, 'Link created successfully!');
    const card = cardOf(page, target);
    const code = ((await card.getByRole('link').textContent()) ?? '').split('/s/')[1] ?? '';
    expect(code).toMatch(/^[a-z0-9]{7}$/);

    // Edit: the availability check waits for typing to stop 500 ms, then asks once.
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/links/check-availability/')) asked.push(pathname.split('/').pop() ?? '');
    });
    await card.getByRole('button', { name: `Edit ${code}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Link' });
    const codeField = dialog.getByRole('textbox', { name: 'Short code' });
    const save = dialog.getByRole('button', { name: 'Save' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Spring sale');

    // Malformed: invalid at once, without asking the server (the rule shows twice: the field's
    // description, then its error).
    await codeField.fill('ab');
    await dialog
      .getByText('3-20 characters: letters, numbers, hyphens, and underscores only')
      .nth(1)
      .waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    expect(await save.isDisabled()).toBe(true);

    // Taken (by the other link): checking, then invalid with the server's message.
    await codeField.fill('');
    await codeField.pressSequentially(other.shortCode, { delay: 40 });
    await dialog.getByText('Checking availability...').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByText('This short code is already taken').waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    expect(await save.isDisabled()).toBe(true);
    expect(asked).toEqual([other.shortCode]);

    // Free: checking, then valid; the keystrokes in between asked nothing.
    await codeField.fill('');
    await codeField.pressSequentially('spring-sale', { delay: 40 });
    await dialog.getByText('Checking availability...').waitFor();
    await dialog.getByText('This short code is available').waitFor();
    expect(await codeField.getAttribute('aria-invalid')).not.toBe('true');
    expect(asked).toEqual([other.shortCode, 'spring-sale']);

    // Someone takes the code between the check and the save: the server refuses, the field says why.
    const taken = await context.request.patch(`/api/links/${other.id}`, {
      data: { shortCode: 'spring-sale' },
    });
    expect(taken.status()).toBe(200);
    await save.click();
    await dialog.getByText('This short code is already taken').waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.isVisible()).toBe(true);

    await codeField.fill('spring-sale-25');
    await dialog.getByText('This short code is available').waitFor();
    await save.click();
    await toastText(page, 'Link updated successfully!');
    await dialog.waitFor({ state: 'hidden' });
    // The duplicate below keeps the title, so the card is told apart by its short link.
    const edited = page
      .getByRole('article', { name: 'Spring sale' })
      .filter({ has: page.getByRole('link', { name: /\/s\/spring-sale-25$/ }) });
    await edited.waitFor();

    // Duplicate: a second link to the same target, under a new code.
    await edited.getByRole('button', { name: 'Duplicate spring-sale-25' }).click();
    await toastText(page, 'Link duplicated successfully!');
    await expect.poll(() => cardOf(page, target).count()).toBe(2);
    await expect.poll(() => statValue(page, 'Total Links')).toBe('3');

    // Delete, after the confirmation.
    await edited.getByRole('button', { name: 'Delete spring-sale-25' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Link' });
    await confirm
      .getByText('Are you sure you want to delete this link? This action cannot be undone.')
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastText(page, 'Link deleted successfully!');
    await edited.waitFor({ state: 'detached' });
    await expect.poll(() => cardOf(page, target).count()).toBe(1);
    await expect.poll(() => statValue(page, 'Total Links')).toBe('2');
    await context.close();
  }, 30_000);

  it('stops a Free account at 5 links: create disabled, none remaining, duplicate refused', async () => {
    const context = await signedInContext('Frida');
    for (let n = 1; n <= 4; n++) await createThroughApi(context, `https://example.com/product/${n}`);
    const page = await context.newPage();
    await page.goto('/home');
    const remaining = page.getByRole('group', { name: 'Links Remaining' });
    await remaining.getByText('of 5 links at a time').waitFor();
    // Free counts the links held: Total Links is that figure, with no second card saying it again.
    expect(await page.getByRole('group', { name: /Total Used|This Month/ }).count()).toBe(0);
    await expect.poll(() => statValue(page, 'Links Remaining')).toBe('1');

    const create = page.getByRole('form', { name: 'Create New Short Link' });
    const shorten = create.getByRole('button', { name: 'Shorten' });
    await create.getByLabel('Long URL').fill('https://example.com/product/5');
    await shorten.click();
    await toastText(page, 'Link created successfully!');
    await expect.poll(() => statValue(page, 'Links Remaining')).toBe('0');
    await expect.poll(() => statValue(page, 'Total Links')).toBe('5');
    expect(await shorten.isDisabled()).toBe(true);
    const limitMessage =
      'Free accounts can hold 5 links at a time. Delete a link, or upgrade to Pro to create more.';
    await create.getByText(limitMessage).waitFor();

    // A duplicate is a new link too: the server refuses it and the toast says so in the same words.
    await cardOf(page, 'https://example.com/product/1')
      .getByRole('button', { name: /^Duplicate / })
      .click();
    expect(await toastText(page, 'Link Limit Reached')).toBe(`Link Limit Reached ${limitMessage}`);
    await expect.poll(() => statValue(page, 'Total Links')).toBe('5');
    expect(await page.getByRole('article').count()).toBe(5);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it("shows a link's clicks by device, referrer, country and day, and exports them", async () => {
    const context = await signedInContext('Ada');
    const link = await createThroughApi(context, 'https://example.com/clicked');
    const click = async (userAgent: string, ip: string, referer?: string) => {
      const response = await fetch(`${stack().app.baseUrl}/s/${link.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': userAgent, 'x-forwarded-for': ip, ...(referer ? { referer } : {}) },
      });
      expect(response.status).toBe(302);
    };
    // Headless Chrome's own agent is a bot's: redirected, but never counted (it goes first, so that the
    // three clicks below cannot be seen before it has been dealt with).
    await click('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/139.0.0.0 Safari/537.36', '8.8.8.8');
    await click(desktopChromeUserAgent, '8.8.8.8', 'https://www.google.com/search?q=sale');
    await click(desktopChromeUserAgent, '8.8.4.4', 'https://google.com/');
    await click(iphoneSafari, '81.2.69.142');

    // Clicks reach the analytics asynchronously, and an opened panel keeps what it was first told (data
    // never goes stale): load the page afresh and open it again until every click is in. A reload would
    // keep the panel open, as the address names it.
    const page = await context.newPage();
    await page.goto('/home');
    const card = cardOf(page, link.originalUrl);
    // The browser's time zone and locale (en-US) name the day, as the chart does.
    const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }).format(new Date());
    const analyticsShown = async () => {
      await page.goto('/home');
      await card.getByRole('button', { name: `Analytics for ${link.shortCode}` }).click();
      await card.getByRole('heading', { name: 'Devices' }).waitFor();
      const chart = await card.getByRole('img', { name: /^Clicks per day/ }).getAttribute('aria-label');
      const bars = await card.getByRole('progressbar').evaluateAll((all) => all.map((bar) => bar.ariaLabel));
      // Read on the same page load: the stat cards' totals and the card's count (the links list) are
      // queries of their own, each fetched once, and may have been answered before the last click counted.
      const cardCount = (await card.innerText()).match(/\b(\d+)\s+clicks?\b/)?.[1];
      return [
        chart,
        ...bars,
        `Total Clicks ${await statValue(page, 'Total Clicks')}`,
        `card: ${cardCount} clicks`,
      ];
    };
    await expect
      .poll(analyticsShown, { timeout: 20_000, interval: 250 })
      .toEqual([
        `Clicks per day: 3 on ${today}`,
        'Desktop: 2 clicks',
        'Mobile: 1 click',
        'Tablet: 0 clicks',
        'Chrome: 2 clicks',
        'Safari: 1 click',
        'Linux: 2 clicks',
        'iOS: 1 click',
        'google.com: 2 clicks',
        'Direct (no referrer): 1 click',
        'United States: 2 clicks',
        'United Kingdom: 1 click',
        'Total Clicks 3',
        'card: 3 clicks',
      ]);
    // The chart draws one bar, today's: hovering it names the day and its clicks.
    const bars = card.locator('[data-chart-bar]');
    await expect.poll(() => bars.count()).toBe(1);
    expect((await bars.boundingBox())?.height).toBeGreaterThan(10);
    await bars.hover();
    await page.getByText(`${today}: 3 clicks`).waitFor();

    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The QR code: a 300 x 300 PNG named after the short code.
    const qrDownload = page.waitForEvent('download');
    await card.getByRole('button', { name: `QR code for ${link.shortCode}` }).click();
    const qr = await qrDownload;
    expect(qr.suggestedFilename()).toBe(`${link.shortCode}.png`);
    const png = await readFile(await qr.path());
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([300, 300]);
    await toastText(page, 'QR code downloaded successfully!');

    // The CSV export opens a new tab; Chromium closes it once the download starts, and reports the
    // download on the page that opened it.
    const tab = context.waitForEvent('page');
    const csv = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await tab;
    const csvDownload = await csv;
    expect(csvDownload.suggestedFilename()).toMatch(/^sniplink-links-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = (await readFile(await csvDownload.path(), 'utf8')).trim().split('\r\n');
    expect(header).toBe('Short Code,Short URL,Original URL,Title,Created,Clicks');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(
      new RegExp(`^${link.shortCode},${link.shortUrl},${link.originalUrl},,\\d{4}-\\d{2}-\\d{2}T[^,]+,3$`),
    );
    await context.close();
  }, 30_000);

  it('fits a toast with a long short URL on a 375 px wide phone', async () => {
    const context = await stack().browser.newContext({
      baseURL: stack().app.baseUrl,
      userAgent: iphoneSafari,
      viewport: { width: 375, height: 667 },
      isMobile: true,
      hasTouch: true,
    });
    context.setDefaultTimeout(10_000);
    accounts += 1;
    await registerThroughApi(context, { email: `phone${accounts}@example.com` });
    const page = await context.newPage();
    await page.goto('/home');
    const create = page.getByRole('form', { name: 'Create New Short Link' });
    await create.getByLabel('Long URL').fill('https://example.com/menu');
    await create.getByRole('button', { name: 'Shorten' }).click();
    const toast = toastTitled(page, 'Link created successfully!');
    await toast.waitFor();
    // The whole toast is on screen, and so is its message: the short URL, one long word, is not clipped.
    const box = await toast.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    const message = toast.locator('.mantine-Notification-description');
    expect(await message.textContent()).toMatch(new RegExp(`^${publicUrl}/s/[a-z0-9]{7}$`));
    expect(await message.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(375);
    await context.close();
  });
});
