// npm run screenshots: full-page PNGs of the landing page and of a dashboard with links and clicks, at a
// phone's width (375 px) and a laptop's (1280 px), in screenshots/. Starts the app as `npm start` does, on
// the embedded default with a fresh DATA_DIR that is deleted afterwards, and drives Debian's Chromium.
// Also prints how much JavaScript Chromium fetched for the landing page (as sent, compressed), to check
// `npm run size:web`.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserUnavailableReason, launchChromium } from '../test/e2e/browser';

const repoRoot = path.resolve(import.meta.dirname, '..');
const outDir = path.join(repoRoot, 'screenshots');
const widths = [375, 1280] as const;

/** Real browsers' user agents: the redirect counts their clicks as people's, not bots'. */
const userAgents = {
  desktopChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};
const account = { email: 'ada@example.com', firstName: 'Ada', password: 'a long enough password' };
const links = [
  { originalUrl: 'https://example.com/spring-sale?utm_source=flyer', title: 'Spring sale flyer' },
  { originalUrl: 'https://example.org/menu/lunch', title: 'Lunch menu' },
  { originalUrl: 'https://example.net/blog/2026/opening-hours-for-the-holidays', title: undefined },
];
const demoUrls = [
  'https://example.com/events/summer-market-2026?utm_source=newsletter&utm_medium=email',
  'https://example.org/menu',
];
/** Clicks per link, each from [user agent, referrer]. */
const clicks: [keyof typeof userAgents, string | undefined][][] = [
  [
    ['desktopChrome', 'https://www.facebook.com/'],
    ['iphoneSafari', 'https://www.instagram.com/'],
    ['iphoneSafari', undefined],
    ['desktopChrome', 'https://news.example.com/'],
    ['iphoneSafari', 'https://www.instagram.com/'],
  ],
  [
    ['iphoneSafari', undefined],
    ['desktopChrome', 'https://www.google.com/'],
  ],
  [],
];

interface CreatedLink {
  shortUrl: string;
}

async function contextFor(browser: Browser, baseURL: string, width: number): Promise<BrowserContext> {
  const phone = width < 768;
  const context = await browser.newContext({
    baseURL,
    userAgent: phone ? userAgents.iphoneSafari : userAgents.desktopChrome,
    viewport: { width, height: phone ? 812 : 900 },
    isMobile: phone,
    hasTouch: phone,
    locale: 'en-US',
  });
  context.setDefaultTimeout(15_000);
  // A page that fails to render would only show as a timeout: say why.
  context.on('weberror', (error) => console.error(`page error: ${error.error().message}`));
  return context;
}

async function seedAccount(app: AppProcess, context: BrowserContext): Promise<void> {
  const registered = await context.request.post('/api/auth/register', { data: account });
  if (!registered.ok()) throw new Error(`register: ${registered.status()} ${await registered.text()}`);
  const created: CreatedLink[] = [];
  for (const link of links) {
    const response = await context.request.post('/api/links', { data: link });
    if (!response.ok()) throw new Error(`create link: ${response.status()} ${await response.text()}`);
    created.push((await response.json()) as CreatedLink);
  }
  let expected = 0;
  for (const [index, link] of created.entries()) {
    for (const [agent, referer] of clicks[index] ?? []) {
      const headers: Record<string, string> = { 'user-agent': userAgents[agent] };
      if (referer) headers.referer = referer;
      const response = await fetch(link.shortUrl.replace(/^https?:\/\/[^/]+/, app.baseUrl), {
        headers,
        redirect: 'manual',
      });
      if (response.status !== 302) throw new Error(`click: ${response.status} for ${link.shortUrl}`);
      expected += 1;
    }
  }
  // Clicks are counted asynchronously (projections): wait until the dashboard would show them all.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listed = (await (await context.request.get('/api/links')).json()) as { clickCount: number }[];
    if (listed.reduce((sum, link) => sum + link.clickCount, 0) >= expected) return;
    if (Date.now() > deadline) throw new Error(`clicks not counted within 30 s (expected ${expected})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function savePage(page: Page, name: string): Promise<string> {
  const file = path.join(outDir, `${name}.png`);
  // Let fonts and late layout settle (the stat cards and charts fill in after their calls).
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Opens "/" as a first-time visitor and returns the size of every script it fetched, as sent; then tries
 * the demo and saves the page with its result.
 */
async function shootLanding(browser: Browser, baseUrl: string, width: number) {
  const context = await contextFor(browser, baseUrl, width);
  const page = await context.newPage();
  const scripts = new Map<string, Promise<number>>();
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    // The body's size as it came over the wire: compressed as the server sent it.
    scripts.set(
      new URL(request.url()).pathname,
      request.sizes().then((sizes) => sizes.responseBodySize),
    );
  });
  await page.goto('/');
  await page.getByRole('heading', { name: 'Try Sniplink Free' }).waitFor();
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(scripts.values());
  // Two demo links, so that the result shows the earlier one too.
  const demo = page.locator('#demo');
  for (const url of demoUrls) {
    await demo.getByLabel('Long URL').fill(url);
    await demo.getByRole('button', { name: 'Shorten' }).click();
    await demo.getByText(url).first().waitFor();
  }
  await demo.getByText('Your other demo links').waitFor();
  const file = await savePage(page, `landing-${width}`);
  await context.close();
  return { file, scripts: sizes.length, sentBytes: sizes.reduce((sum, size) => sum + size, 0) };
}

async function shootDashboard(browser: Browser, app: AppProcess, width: number, seed: boolean) {
  const context = await contextFor(browser, app.baseUrl, width);
  if (seed) await seedAccount(app, context);
  else {
    const signedIn = await context.request.post('/api/auth/login', {
      data: { email: account.email, password: account.password },
    });
    if (!signedIn.ok()) throw new Error(`login: ${signedIn.status()} ${await signedIn.text()}`);
  }
  const page = await context.newPage();
  await page.goto('/home');
  await page
    .getByText(links[0]?.title ?? '')
    .first()
    .waitFor();
  const file = await savePage(page, `dashboard-${width}`);
  await context.close();
  return file;
}

async function main(): Promise<void> {
  const unavailable = browserUnavailableReason();
  if (unavailable) throw new Error(unavailable);
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'ensure-web-build.mjs')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('web build failed');
  await mkdir(outDir, { recursive: true });

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-screenshots-'));
  let app: AppProcess | undefined;
  let browser: Browser | undefined;
  try {
    console.log(`starting the app on the embedded database in ${dataDir}…`);
    app = await startAppProcess(
      { DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_URL: undefined, LOG_LEVEL: 'warn' },
      180_000,
    );
    browser = await launchChromium();
    const files: string[] = [];
    let landingScripts = { scripts: 0, sentBytes: 0 };
    for (const width of widths) {
      const landing = await shootLanding(browser, app.baseUrl, width);
      files.push(landing.file);
      if (width === 1280) landingScripts = landing;
    }
    for (const [index, width] of widths.entries()) {
      files.push(await shootDashboard(browser, app, width, index === 0));
    }
    for (const file of files) console.log(path.relative(process.cwd(), file));
    console.log(
      `Chromium fetched ${landingScripts.scripts} scripts for the landing page: ${(landingScripts.sentBytes / 1000).toFixed(1)} kB as sent (compare npm run size:web, which leaves out the demo's form, fetched after the first screen)`,
    );
  } finally {
    await browser?.close();
    await app?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
