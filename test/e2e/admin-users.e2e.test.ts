import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, newDesktopContext } from './browser';
import { browserStackFor, signedUpContext, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] admin Users journeys SKIPPED: ${unavailable}`);

const ADMIN = 'console.admin@example.com';

/** The console's Users tab as an admin uses it, and the gate as a non-admin meets it. */
describe.skipIf(unavailable !== undefined)('the admin console’s Users tab in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN });

  const account = (email: string, names: { firstName?: string; lastName?: string } = {}) =>
    signedUpContext(stack(), { email, ...names });

  it('an admin searches, opens View, suspends a user and makes them an admin', async () => {
    const admin = await account(ADMIN, { firstName: 'Ada' });
    const member = await account('grace.hopper@example.com', { firstName: 'Grace', lastName: 'Hopper' });
    await account('alan.turing@example.com', { firstName: 'Alan', lastName: 'Turing' });
    const page = await admin.newPage();

    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Users' }).click();
    const table = page.getByRole('table');
    await table.getByText('alan.turing@example.com').waitFor();

    // A search by full name, in another case, narrows the table to one user.
    await page.getByRole('textbox', { name: 'Search users' }).fill('GRACE HOP');
    await expect.poll(async () => table.getByRole('row').count()).toBe(2); // the header and Grace
    const row = table.getByRole('row').filter({ hasText: 'grace.hopper@example.com' });
    expect((await row.innerText()).replace(/\s+/g, ' ')).toContain('Grace Hopper');
    await row.getByText('Free', { exact: true }).waitFor();

    // The export downloads the current search's CSV.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^sniplink-users-\d{4}-\d{2}-\d{2}\.csv$/);

    await row.getByRole('button', { name: 'View grace.hopper@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'User details' });
    await dialog.getByText('grace.hopper@example.com').waitFor();

    await dialog.getByRole('button', { name: 'Suspend' }).click();
    expect(await toastText(page, 'User suspended')).toContain('User suspended');
    await dialog.getByRole('button', { name: 'Unsuspend' }).waitFor();
    await dialog.locator('.mantine-Badge-label', { hasText: /^Suspended$/ }).waitFor();
    // The dialog's history lists the suspension at once.
    await dialog.getByTitle('UserSuspended').waitFor();
    // Her open session ended at once.
    expect((await member.request.get('/api/auth/user')).status()).toBe(401);

    const adminSwitch = dialog.getByRole('switch', { name: 'Admin privileges' });
    expect(await adminSwitch.isChecked()).toBe(false);
    await adminSwitch.click({ force: true });
    expect(await toastText(page, 'Admin privileges granted')).toContain('Admin privileges granted');
    await expect.poll(() => adminSwitch.isChecked()).toBe(true);
    // The history says it in words: who by address, what was done; no ids, no revisions.
    const history = dialog.getByRole('table', { name: 'Admin actions' });
    const granted = history.getByRole('row').filter({ hasText: 'Made admin' });
    await granted.waitFor();
    expect(await granted.innerText()).toContain(ADMIN);
    const historyText = await history.innerText();
    expect(historyText).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/i);
    expect(historyText).not.toMatch(/revision|by:/i);
    await page.keyboard.press('Escape');
    await row.getByText('Admin', { exact: true }).waitFor();
  });

  it('shows the last admin’s 409 in a toast when they switch their own flag off', async () => {
    const lone = await newDesktopContext(stack().browser, stack().app.baseUrl);
    const signIn = await lone.request.post('/api/auth/login', {
      data: { email: ADMIN, password: 'a long enough password' },
    });
    expect(signIn.status()).toBe(200);
    // Grace was made an admin above: take her flag away, so that Ada is the last.
    const page = await lone.newPage();
    await page.goto('/admin?tab=users');
    const table = page.getByRole('table');
    const grace = table.getByRole('row').filter({ hasText: 'grace.hopper@example.com' });
    await grace.getByRole('button', { name: /^View/ }).click();
    const dialog = page.getByRole('dialog', { name: 'User details' });
    await dialog.getByRole('switch', { name: 'Admin privileges' }).click({ force: true });
    expect(await toastText(page, 'Admin privileges removed')).toContain('removed');
    await page.keyboard.press('Escape');

    const ada = table.getByRole('row').filter({ hasText: ADMIN });
    await ada.getByRole('button', { name: `View ${ADMIN}` }).click();
    await dialog.getByRole('switch', { name: 'Admin privileges' }).click({ force: true });
    expect(await toastText(page, 'Error')).toContain(
      'You are the last admin: make another user an admin before removing your own admin access.',
    );
    expect(await dialog.getByRole('switch', { name: 'Admin privileges' }).isChecked()).toBe(true);
  });

  it('a non-admin opening /admin sees "Unauthorized" / "Admin access required." and lands on /', async () => {
    const member = await account('not.an.admin@example.com');
    const page = await member.newPage();
    await page.goto('/admin');
    expect(await toastText(page, 'Unauthorized')).toBe('Unauthorized Admin access required.');
    await page.waitForURL((url) => url.pathname === '/');
  });
});
