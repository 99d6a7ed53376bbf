import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { browserStackFor, signedInPage, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] support journeys SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'helpdesk@example.com';
const SUBJECT = 'My short link shows a blank page';
/** Markup in a message is text: it must show literally and never run. */
const FIRST_MESSAGE = 'Since this morning <img src=x onerror="window.__ran=1"> it is blank.';
const STAFF_REPLY = 'We fixed the target. Could you try again?';
const USER_REPLY = 'It works now, thank you!';

describe.skipIf(unavailable !== undefined)('support tickets in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  const signedIn = (email: string, firstName: string) => signedInPage(stack(), { email, firstName });

  async function supportCenter(page: Page) {
    await page.goto('/home');
    await page.getByRole('button', { name: 'Support', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Support Center' });
    await dialog.waitFor();
    return dialog;
  }

  it('a user opens a ticket, an admin assigns and answers it, the user replies, the admin resolves it, the user closes it', async () => {
    // The user opens a ticket from the dashboard's Support Center.
    const { page: userPage } = await signedIn('asker@example.com', 'Uma');
    let dialog = await supportCenter(userPage);
    await dialog.getByText('You have no support tickets yet.').waitFor();
    await dialog.getByRole('textbox', { name: 'Subject' }).fill(SUBJECT);
    await dialog.getByRole('textbox', { name: 'Message' }).fill(FIRST_MESSAGE);
    expect(await dialog.getByLabel('Priority', { exact: true }).inputValue()).toBe('Medium');
    await dialog.getByLabel('Priority', { exact: true }).click();
    await userPage.getByRole('option', { name: 'High' }).click();
    expect(await seriousAccessibilityViolations(userPage)).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit Ticket' }).click();
    expect(await toastText(userPage, 'Support Ticket Created')).toBe('Support Ticket Created');
    const userRow = dialog.getByRole('row').filter({ hasText: SUBJECT });
    await userRow.waitFor();
    expect((await userRow.getByRole('cell').allTextContents()).slice(0, 4)).toEqual([
      SUBJECT,
      'High',
      'Open',
      'Today',
    ]);

    // The admin finds it in the Support tab, counted as open, and takes it.
    const { page: adminPage } = await signedIn(ADMIN_EMAIL, 'Ada');
    await adminPage.goto('/admin?tab=support');
    const supportTab = adminPage.getByRole('tab', { name: 'Support' });
    await supportTab.waitFor();
    expect(await supportTab.getAttribute('aria-selected')).toBe('true');
    const openCount = adminPage.getByLabel('Open tickets');
    await expect.poll(() => openCount.innerText()).toContain('1');
    const adminRow = adminPage.getByRole('row').filter({ hasText: SUBJECT });
    await adminRow.waitFor();
    // The user by e-mail and by id.
    const asker = (await (await userPage.request.get('/api/auth/user')).json()) as { id: string };
    expect(await adminRow.innerText()).toContain('asker@example.com');
    expect(await adminRow.innerText()).toContain(asker.id);
    await adminRow.getByRole('button', { name: 'Assign to me' }).click();
    expect(await toastText(adminPage, 'Ticket assigned to you')).toContain('Ticket assigned');
    await expect.poll(() => adminRow.textContent()).toContain('In progress');
    await expect.poll(() => adminPage.getByLabel('In Progress tickets').innerText()).toContain('1');

    // The admin reads the thread and answers as the Support Team.
    await adminRow.getByRole('button', { name: `View ticket ${SUBJECT}` }).click();
    const thread = adminPage.getByRole('dialog', { name: 'Ticket' });
    await thread.getByText(FIRST_MESSAGE).waitFor();
    await thread.getByRole('textbox', { name: 'Reply as the Support Team' }).fill(STAFF_REPLY);
    await thread.getByRole('button', { name: 'Send Reply' }).click();
    expect(await toastText(adminPage, 'Message Sent')).toBe('Message Sent');
    await thread.getByText(STAFF_REPLY).waitFor();
    expect(await seriousAccessibilityViolations(adminPage)).toEqual([]);

    // The user sees the answer labelled "Support Team" and replies.
    dialog = await supportCenter(userPage);
    await dialog.getByRole('button', { name: `View ticket ${SUBJECT}` }).click();
    const staffMessage = dialog
      .getByRole('group', { name: 'Conversation' })
      .locator('.mantine-Paper-root')
      .filter({ hasText: STAFF_REPLY });
    await staffMessage.waitFor();
    expect(await staffMessage.innerText()).toContain('Support Team');
    expect(await dialog.getByText(FIRST_MESSAGE).count()).toBe(1);
    expect(await userPage.evaluate(() => (globalThis as { __ran?: number }).__ran)).toBeUndefined();
    await dialog.getByRole('textbox', { name: 'Your reply' }).fill(USER_REPLY);
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    expect(await toastText(userPage, 'Message Sent')).toBe('Message Sent');
    await dialog.getByText(USER_REPLY).waitFor();

    // The admin, whose open thread is a place in the address, reloads it to see the reply, and resolves
    // the ticket.
    await adminPage.reload();
    await thread.getByText(USER_REPLY).waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    expect(await toastText(adminPage, 'Ticket resolved')).toBe('Ticket resolved');
    await expect.poll(() => adminPage.getByLabel('Resolved tickets').innerText()).toContain('1');

    // The user closes it; the reply box is gone.
    dialog = await supportCenter(userPage);
    const resolvedRow = dialog.getByRole('row').filter({ hasText: SUBJECT });
    await expect.poll(() => resolvedRow.textContent()).toContain('Resolved');
    await resolvedRow.getByRole('button', { name: `View ticket ${SUBJECT}` }).click();
    await dialog.getByRole('button', { name: 'Close Ticket' }).click();
    await dialog.getByText('This ticket is closed.').waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Your reply' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Back to tickets' }).click();
    await expect
      .poll(() => dialog.getByRole('row').filter({ hasText: SUBJECT }).textContent())
      .toContain('Closed');
  });
});
