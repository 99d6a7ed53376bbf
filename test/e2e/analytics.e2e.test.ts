import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, desktopChromeUserAgent, seriousAccessibilityViolations } from './browser';
import { browserStackFor, registerThroughApi } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] link analytics journeys SKIPPED: ${unavailable}`);

const userAgents = {
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipadSafari:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};

/** The reader's time zone: far from UTC, so that a day counted in UTC would show on the wrong date. */
const timeZone = 'Asia/Tokyo';

describe.skipIf(unavailable !== undefined)("a link's analytics in a real browser", () => {
  // X-Forwarded-For is trusted so that the clicks below come from real countries' addresses.
  const stack = browserStackFor({ TRUST_PROXY: '1' });

  async function signedInContext(): Promise<BrowserContext> {
    const context = await stack().browser.newContext({
      baseURL: stack().app.baseUrl,
      userAgent: desktopChromeUserAgent,
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      timezoneId: timeZone,
    });
    context.setDefaultTimeout(10_000);
    await registerThroughApi(context, { email: 'analyst@example.com', firstName: 'Ada' });
    return context;
  }

  /** A day `daysAgo` before today in the reader's zone: as the address writes it, and as the calendar names it. */
  const localDay = (daysAgo: number) => {
    const at = new Date(Date.now() - daysAgo * 86_400_000);
    const part = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('en-US', { timeZone, ...options }).format(at);
    return {
      iso: new Intl.DateTimeFormat('en-CA', { timeZone }).format(at),
      label: `${part({ day: 'numeric' })} ${part({ month: 'long' })} ${part({ year: 'numeric' })}`,
    };
  };

  /** Picks a range as a person does: its segment's label (the radio inside is drawn by the label). */
  const pickRange = (page: Page, name: string) =>
    page.getByRole('radiogroup', { name: 'Range' }).getByText(name, { exact: true }).click();

  /** The labels of a breakdown's bars ("Chrome: 1 click"), in the order shown. */
  const barsOf = (page: Page, title: string) =>
    page
      .getByRole('group', { name: title, exact: true })
      .getByRole('progressbar')
      .evaluateAll((bars) => bars.map((bar) => bar.ariaLabel));

  it('a link made with its own back-half and title from the form, found by search, shows 7 days of clicks by browser, system, referrer and country, on a world map too', async () => {
    const context = await signedInContext();
    await context.request.post('/api/links', { data: { originalUrl: 'https://example.com/other' } });
    const page = await context.newPage();
    await page.goto('/home');
    const create = page.getByRole('form', { name: 'Create New Short Link' });
    await create.getByRole('textbox', { name: 'Long URL' }).fill('example.com/sale');
    await create.getByRole('textbox', { name: 'Title (optional)' }).fill('Summer sale');
    await create
      .getByRole('textbox', { name: 'Custom back-half (optional)' })
      .pressSequentially('summer-sale', {
        delay: 20,
      });
    await create.getByText('This short code is available').waitFor();
    await create.getByRole('button', { name: 'Shorten' }).click();
    await page.getByRole('article', { name: 'Summer sale' }).waitFor();
    const links = (await (await context.request.get('/api/links')).json()) as {
      id: string;
      shortCode: string;
    }[];
    const link = links.find((candidate) => candidate.shortCode === 'summer-sale') as {
      id: string;
      shortCode: string;
    };
    expect(link).toBeDefined();
    const visits: [string, string, string?][] = [
      [userAgents.windowsChrome, '8.8.8.8', 'https://www.google.com/search?q=sale'],
      [userAgents.linuxFirefox, '81.2.69.142', 'https://t.co/x'],
      [userAgents.iphoneSafari, '8.8.4.4'],
      [userAgents.ipadSafari, '81.2.69.160', 'https://news.ycombinator.com/item?id=1'],
    ];
    for (const [userAgent, ip, referer] of visits) {
      const response = await fetch(`${stack().app.baseUrl}/s/${link.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': userAgent, 'x-forwarded-for': ip, ...(referer ? { referer } : {}) },
      });
      expect(response.status).toBe(302);
    }

    // The map and the picker come in chunks of their own under the app's content security policy: any
    // error or refused load shows here.
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/home');
    await page.getByRole('searchbox', { name: 'Search links' }).fill('summer');
    await expect
      .poll(() => page.getByRole('article').evaluateAll((cards) => cards.map((card) => card.ariaLabel)))
      .toEqual(['Summer sale']);
    await page.getByRole('button', { name: `Analytics for ${link.shortCode}` }).click();
    await pickRange(page, '7 days');
    await page.waitForURL((url) => url.searchParams.get('range') === '7d');
    const today = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric' }).format(
      new Date(),
    );

    // Clicks reach the analytics asynchronously and a shown answer is kept: load the address afresh (it
    // names the link and the range) until every click is in.
    const chart = page.getByRole('img', { name: /^Clicks per day/ });
    await expect
      .poll(
        async () => {
          await page.goto(page.url());
          return chart.getAttribute('aria-label');
        },
        { timeout: 20_000, interval: 300 },
      )
      .toBe(`Clicks per day: 4 on ${today}`);
    await page.getByText('4 clicks', { exact: true }).waitFor();
    await page.getByText('in the last 7 days').waitFor();
    // Seven bars' days under the chart, dated in the reader's zone; the counts axis at whole numbers.
    expect(await page.locator('[data-chart-ticks] span').allInnerTexts()).toEqual(['0', '1', '2', '3', '4']);

    expect(await barsOf(page, 'Devices')).toEqual([
      'Desktop: 2 clicks',
      'Mobile: 1 click',
      'Tablet: 1 click',
    ]);
    expect(await barsOf(page, 'Browsers')).toEqual([
      'Safari: 2 clicks',
      'Chrome: 1 click',
      'Firefox: 1 click',
    ]);
    expect(await barsOf(page, 'Operating systems')).toEqual([
      'iOS: 2 clicks',
      'Linux: 1 click',
      'Windows: 1 click',
    ]);
    expect(await barsOf(page, 'Referrers')).toEqual([
      'Direct (no referrer): 1 click',
      'google.com: 1 click',
      'news.ycombinator.com: 1 click',
      't.co: 1 click',
    ]);
    expect(await barsOf(page, 'Countries')).toEqual(['United Kingdom: 2 clicks', 'United States: 2 clicks']);

    // The map loads with the countries that have clicks, and shades exactly those.
    const map = page.getByRole('img', { name: /^World map of clicks/ });
    await map.waitFor();
    expect(await map.getAttribute('aria-label')).toBe(
      'World map of clicks: United Kingdom 2, United States 2',
    );
    expect(
      await map
        .locator('path[data-clicked]')
        .evaluateAll((paths) => paths.map((p) => p.dataset.clicked).sort()),
    ).toEqual(['GB', 'US']);
    expect(await map.locator('path').count()).toBeGreaterThan(150);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The last 24 hours, per hour: the clicks are in the current hour.
    await pickRange(page, '24 h');
    await page.getByRole('img', { name: /^Clicks per hour: 4 on / }).waitFor();
    await page.getByText('in the last 24 hours').waitFor();

    // A custom range: it starts as the last 7 days; picking yesterday and today in the calendar makes it
    // those two days, in the address too.
    await pickRange(page, 'Custom');
    await page.waitForURL((url) =>
      /^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/.test(url.searchParams.get('range') ?? ''),
    );
    await page.getByRole('button', { name: 'Days' }).click();
    const calendar = page.locator('.mantine-Popover-dropdown');
    await calendar.waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const yesterday = localDay(1);
    const todayThere = localDay(0);
    for (const day of [yesterday, todayThere]) {
      const button = calendar.getByRole('button', { name: day.label, exact: true });
      // Yesterday may be in the month before the one shown (the range began 6 days ago), today in the next.
      if (!(await button.isVisible())) await calendar.getByRole('button', { name: 'Next month' }).click();
      await button.click();
    }
    await page.waitForURL((url) => url.searchParams.get('range') === `${yesterday.iso}..${todayThere.iso}`);
    await page.getByRole('img', { name: `Clicks per day: 4 on ${today}` }).waitFor();
    await page.getByText(/^in \w+ \d+ – \w+ \d+$/).waitFor();

    expect(errors).toEqual([]);

    // A day that does not exist, typed in the address: the panel says what is wrong; the home stays.
    await page.goto(`/home?analytics=${link.id}&range=2026-02-30..2026-03-02`);
    await page.getByText('from is not a day of the calendar').waitFor();
    await page.getByRole('heading', { name: 'Your Links', exact: true }).waitFor();
    await context.close();
  });
});
