import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { madeOnce } from '@sniplink/test-support/lifecycle';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, newDesktopContext } from './browser';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface BrowserStack {
  app: AppProcess;
  browser: Browser;
  stop(): Promise<void>;
}

/**
 * The built web app served by the real app process on a database of its own, and a Chromium to drive it:
 * what each browser test file starts once in its beforeAll.
 */
export async function startBrowserStack(env: Record<string, string> = {}): Promise<BrowserStack> {
  const build = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`);
  const database: TestDatabase = await createTestDatabase();
  // Sign-up mails a confirmation link: into an outbox of this app's own, not the checkout's ./data.
  const ownDataDir = env.DATA_DIR ? undefined : await mkdtemp(path.join(tmpdir(), 'sniplink-e2e-'));
  const app = await startAppProcess({
    DATABASE_URL: database.connectionString,
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ...env,
  });
  const browser = await launchChromium();
  return {
    app,
    browser,
    stop: async () => {
      await browser.close();
      await app.stop();
      await database.drop();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The browser stack of a describe block, started in its beforeAll and stopped in its afterAll (see
 * `madeOnce`).
 */
export const browserStackFor = (env: Record<string, string> = {}) =>
  madeOnce(
    () => startBrowserStack(env),
    (stack) => stack.stop(),
  );

const testPassword = 'a long enough password';

/** Creates an account over HTTP; the context keeps its session cookie, as after signing up in the page. */
export async function registerThroughApi(
  context: BrowserContext,
  account: { email: string; firstName?: string; lastName?: string },
): Promise<void> {
  const response = await context.request.post('/api/auth/register', {
    data: { ...account, password: testPassword },
  });
  if (!response.ok()) throw new Error(`register: ${response.status()} ${await response.text()}`);
}

/** A desktop browser context of its own, signed in as a new account (signed up through the API). */
export async function signedUpContext(
  stack: Pick<BrowserStack, 'app' | 'browser'>,
  account: { email: string; firstName?: string; lastName?: string },
): Promise<BrowserContext> {
  const context = await newDesktopContext(stack.browser, stack.app.baseUrl);
  await registerThroughApi(context, account);
  return context;
}

/** A desktop browser context of its own, signed in as a new account with `email` (signed up through the API), and a page in it. */
export async function signedInPage(
  stack: Pick<BrowserStack, 'app' | 'browser'>,
  account: { email: string; firstName: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await signedUpContext(stack, account);
  return { context, page: await context.newPage() };
}

/** The one toast on screen with this title (at most one is visible). */
export function toastTitled(page: Page, title: string): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: title });
}

/** Waits for the toast and returns its text (title and message). */
export async function toastText(page: Page, title: string): Promise<string> {
  const toast = toastTitled(page, title);
  await toast.waitFor();
  return (await toast.innerText()).replace(/\s+/g, ' ').trim();
}
