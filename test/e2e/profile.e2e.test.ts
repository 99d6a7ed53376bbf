import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verificationLink, waitForMails } from '@sniplink/test-support/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext, seriousAccessibilityViolations } from './browser';
import { type BrowserStack, registerThroughApi, startBrowserStack, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] profile journey SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('the profile in a real browser', () => {
  let stack: BrowserStack;
  let dataDir: string;

  beforeAll(async () => {
    // The app's outbox, read as the user's mailbox.
    dataDir = await mkdtemp(path.join(tmpdir(), 'sniplink-profile-e2e-'));
    stack = await startBrowserStack({ DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('edits the name, which stays after a reload and shows in the avatar menu, then signs out', async () => {
    const context = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(context, { email: 'margaret@example.com', firstName: 'Maggie' });
    const page = await context.newPage();
    await page.goto('/home');
    await page.getByRole('button', { name: 'Account menu for Maggie' }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor();
    // The menu fades out after the click: the accessibility check below is of the page at rest, not of a
    // dropdown half-way through its closing transition (axe flagged that once, 1 run in many).
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expect.poll(() => page.title()).toBe('Profile Settings | Sniplink');

    const form = page.getByRole('form', { name: 'Personal details' });
    const firstName = form.getByRole('textbox', { name: 'First name' });
    const lastName = form.getByRole('textbox', { name: 'Last name' });
    const email = form.getByRole('textbox', { name: 'E-mail' });
    expect(await firstName.inputValue()).toBe('Maggie');
    expect(await email.inputValue()).toBe('margaret@example.com');
    expect(await email.isEditable()).toBe(false);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await firstName.fill('Margaret');
    await lastName.fill('Hamilton');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await toastText(page, 'Profile updated');
    // The avatar menu reads the refreshed user at once...
    await page.getByRole('button', { name: 'Account menu for Margaret' }).waitFor();

    // ...and the change is the server's, not only this page's.
    await page.reload();
    await form.waitFor();
    expect(await firstName.inputValue()).toBe('Margaret');
    expect(await lastName.inputValue()).toBe('Hamilton');
    expect(await email.inputValue()).toBe('margaret@example.com');
    await page.getByRole('button', { name: 'Account menu for Margaret' }).click();
    const menu = page.getByRole('menu');
    await menu.getByText('Margaret', { exact: true }).waitFor();
    await menu.getByText('margaret@example.com').waitFor();

    // Logout is a navigation to /api/logout, which ends the session and lands on "/".
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Login' }).waitFor();
    await nav.getByRole('link', { name: 'Start Free' }).waitFor();
    expect(await page.getByRole('button', { name: /^Account menu/ }).count()).toBe(0);
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    await context.close();
  });

  it('sends the e-mail confirmation link again, whose opening lands on the dashboard saying it worked', async () => {
    const context = await newDesktopContext(stack.browser, stack.app.baseUrl);
    await registerThroughApi(context, { email: 'grace@example.com', firstName: 'Grace' });
    const page = await context.newPage();
    await page.goto('/profile');
    const notice = page.getByText('Your e-mail address is not confirmed yet.');
    await notice.waitFor();
    // Checked at rest: the top bar's loader (a labelled span) is gone once the account menu is there.
    await page.getByRole('button', { name: 'Account menu for Grace' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send the confirmation link again' }).click();
    await toastText(page, 'Confirmation sent');

    // The sign-up's mail and this one; the link leads to PUBLIC_URL, opened here on the same app.
    const mails = await waitForMails(dataDir, 'grace@example.com', 2);
    const link = verificationLink(mails.at(-1) ?? '');
    await page.goto(`${link.pathname}${link.search}`);
    await page.waitForURL((url) => url.pathname === '/home' && url.search === '');
    expect(await toastText(page, 'E-mail address confirmed')).toContain('your address is confirmed');
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'E-mail' }).waitFor();
    expect(await notice.count()).toBe(0);

    // Opened again, signed out: the sign-in page says the link is used up.
    const signedOut = await newDesktopContext(stack.browser, stack.app.baseUrl);
    const other = await signedOut.newPage();
    await other.goto(`${link.pathname}${link.search}`);
    await other.waitForURL((url) => url.pathname === '/login');
    await other
      .getByText('This confirmation link has expired or was already used.', { exact: false })
      .waitFor();
    // A provider sign-in refused for an unconfirmed account says what to do.
    await other.goto('/login?error=verify-first');
    await other.getByText('Sign in with its password, then confirm your address', { exact: false }).waitFor();
    await signedOut.close();
    await context.close();
  });
});
