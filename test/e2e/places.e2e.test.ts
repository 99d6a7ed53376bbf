import { describe, expect, it } from 'vitest';
import { browserUnavailableReason } from './browser';
import { browserStackFor, signedUpContext, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] places in the address SKIPPED: ${unavailable}`);

const ADMIN = 'places.admin@example.com';
const SUBJECT = 'My link stopped working';

/** A reload or the back button keeps the user where they were: the address names the place. */
describe.skipIf(unavailable !== undefined)('places in the address in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN });

  const account = (email: string, names: { firstName?: string; lastName?: string } = {}) =>
    signedUpContext(stack(), { email, ...names });

  it('a reload finds the same admin tab, View dialog, open tickets and link analytics; back returns to the tab', async () => {
    const admin = await account(ADMIN, { firstName: 'Ada' });
    const member = await account('katherine.johnson@example.com', { firstName: 'Katherine' });

    // An admin tab survives a reload.
    const adminPage = await admin.newPage();
    await adminPage.goto('/admin');
    await adminPage.getByRole('tab', { name: 'Users' }).click();
    const table = adminPage.getByRole('table');
    await table.getByText('katherine.johnson@example.com').waitFor();
    await adminPage.reload();
    await table.getByText('katherine.johnson@example.com').waitFor();
    expect(await adminPage.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true');

    // So does a user's View dialog.
    await table.getByRole('button', { name: 'View katherine.johnson@example.com' }).click();
    const details = adminPage.getByRole('dialog', { name: 'User details' });
    await details.getByText('katherine.johnson@example.com').waitFor();
    await adminPage.reload();
    await details.getByText('katherine.johnson@example.com').waitFor();

    // Back closes the dialog and leaves the Users tab open.
    await adminPage.goBack();
    await details.waitFor({ state: 'detached' });
    await table.getByText('katherine.johnson@example.com').waitFor();
    expect(await adminPage.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true');

    // A user's open ticket survives a reload, in the Support Center.
    const userPage = await member.newPage();
    await userPage.goto('/home');
    await userPage.getByRole('button', { name: 'Support', exact: true }).click();
    const center = userPage.getByRole('dialog', { name: 'Support Center' });
    await center.getByRole('textbox', { name: 'Subject' }).fill(SUBJECT);
    await center.getByRole('textbox', { name: 'Message' }).fill('It answers 404 since this morning.');
    await center.getByRole('button', { name: 'Submit Ticket' }).click();
    expect(await toastText(userPage, 'Support Ticket Created')).toBe('Support Ticket Created');
    await center.getByRole('button', { name: `View ticket ${SUBJECT}` }).click();
    await center.getByText('It answers 404 since this morning.').waitFor();
    await userPage.reload();
    await center.getByText('It answers 404 since this morning.').waitFor();
    await center.getByRole('button', { name: 'Back to tickets' }).waitFor();

    // In the console's Support tab, the open ticket survives a reload; back closes it and keeps the tab.
    await adminPage.getByRole('tab', { name: 'Support' }).click();
    const row = adminPage.getByRole('row').filter({ hasText: SUBJECT });
    await row.getByRole('button', { name: `View ticket ${SUBJECT}` }).click();
    const thread = adminPage.getByRole('dialog', { name: 'Ticket' });
    await thread.getByText('It answers 404 since this morning.').waitFor();
    expect(new URL(adminPage.url()).searchParams.get('tab')).toBe('support');
    await adminPage.reload();
    await thread.getByText('It answers 404 since this morning.').waitFor();
    await adminPage.goBack();
    await thread.waitFor({ state: 'detached' });
    await row.waitFor();
    expect(await adminPage.getByRole('tab', { name: 'Support' }).getAttribute('aria-selected')).toBe('true');

    // The tab's filters are places too: closed tickets only, which this one is not, also after a reload.
    await adminPage.goto('/admin?tab=support&status=closed');
    await adminPage.getByText('No tickets.').waitFor();
    await adminPage.reload();
    await adminPage.getByText('No tickets.').waitFor();
    expect(await adminPage.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Closed');

    // Closing the dialog takes the place out of the address.
    await center.getByRole('button', { name: 'Close Support Center' }).click();
    await center.waitFor({ state: 'detached' });
    expect(new URL(userPage.url()).search).toBe('');

    // A link's open analytics survive a reload too.
    const made = await member.request.post('/api/links', {
      data: { originalUrl: 'https://example.com/report' },
    });
    expect(made.ok()).toBe(true);
    const { shortCode } = (await made.json()) as { shortCode: string };
    await userPage.reload();
    const card = userPage.getByRole('article').filter({ hasText: 'https://example.com/report' });
    await card.getByRole('button', { name: `Analytics for ${shortCode}` }).click();
    await card.getByRole('heading', { name: 'Devices' }).waitFor();
    await userPage.reload();
    await card.getByRole('heading', { name: 'Devices' }).waitFor();
    expect(
      await card.getByRole('button', { name: `Analytics for ${shortCode}` }).getAttribute('aria-expanded'),
    ).toBe('true');
  });
});
