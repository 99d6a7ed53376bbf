import type { Link } from '@sniplink/contracts';
import { linkStream } from '@sniplink/contracts/links/events';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, browserUnavailableReason } from './browser';
import { browserStackFor, signedInPage, signedUpContext } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] admin events journey SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'events.reader@example.com';
const MEMBER_EMAIL = 'events.member@example.com';

/** The Events tab: an admin finds a member's link by its code, reads its history and opens its state. */
describe.skipIf(unavailable !== undefined)('the admin console: Events', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  it('finds a link by its code, lists its events with their actors, and shows the state after each', async () => {
    // A member makes a link and renames it: two events on the link's stream, both the member's.
    const member = await signedUpContext(stack(), { email: MEMBER_EMAIL, firstName: 'Mel' });
    const created = await member.request.post('/api/links', {
      data: { originalUrl: 'https://example.org/story', title: 'First title' },
    });
    expect(created.status()).toBe(201);
    const link = (await created.json()) as Link;
    const renamed = await member.request.patch(`/api/links/${link.id}`, { data: { title: 'Second title' } });
    expect(renamed.status()).toBe(200);
    await member.close();

    const { page } = await signedInPage(stack(), { email: ADMIN_EMAIL, firstName: 'Ada' });
    await page.goto('/admin?tab=events');
    const eventsTab = page.getByRole('tab', { name: 'Events' });
    await eventsTab.waitFor();
    expect(await eventsTab.getAttribute('aria-selected')).toBe('true');
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs.indexOf('Events')).toBe(tabs.indexOf('Docs') + 1);

    // Found by its code, in any case.
    await page.getByRole('textbox', { name: 'Find an entity' }).fill(link.shortCode.toUpperCase());
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    const match = page.getByRole('list', { name: 'Matching entities' }).getByRole('listitem');
    await match.filter({ hasText: 'Link' }).first().getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('stream') === linkStream.id(link.id));

    // The timeline: each event with who did it.
    const timeline = page.getByLabel('Event timeline');
    await timeline.getByRole('button', { name: 'LinkCreated' }).waitFor();
    const items = await timeline.getByRole('button').allInnerTexts();
    expect(items).toHaveLength(2);
    expect(await timeline.innerText()).toContain(MEMBER_EMAIL);

    // The state right after the first event, then after the rename.
    await timeline.getByRole('button', { name: 'LinkCreated' }).click();
    const details = page.getByRole('region', { name: 'Event details' });
    expect(await details.innerText()).toContain(MEMBER_EMAIL);
    const state = details.getByLabel('State after this event');
    await state.waitFor();
    expect(await state.innerText()).toContain('"title": "First title"');
    await timeline.getByRole('button', { name: items[1] ?? '' }).click();
    await state.getByText('"title": "Second title"').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // The place is in the address: a reload opens the same stream and event.
    await page.reload();
    await state.getByText('"title": "Second title"').waitFor();

    // The request that made the link, across streams: one click away.
    await timeline.getByRole('button', { name: 'LinkCreated' }).click();
    // The request's events are listed from a read model: on a busy machine it may not hold the last of
    // them when the dialog first opens, and opening it again asks anew.
    const dialog = page.getByRole('dialog', { name: 'Events of the same request' });
    await expect
      .poll(async () => {
        if (await dialog.isVisible()) await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        await details.getByRole('button', { name: 'Events of the same request' }).click();
        await dialog.getByText(linkStream.id(link.id)).waitFor();
        return dialog.getByRole('row').count();
      })
      .toBeGreaterThan(2);
  });
});
