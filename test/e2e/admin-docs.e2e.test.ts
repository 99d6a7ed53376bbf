import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { starterDocs } from '../../services/api/src/admin-docs/starter-docs';
import { accessibilityViolations, browserUnavailableReason } from './browser';
import { browserStackFor, signedInPage, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] admin docs journey SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'docs.writer@example.com';
const supportDocs = starterDocs.filter((doc) => doc.section === 'support');

/** The Docs tab of the console: an admin seeds the starter docs, filters, writes, edits and deletes one. */
describe.skipIf(unavailable !== undefined)('the admin console: Docs', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  const docs = (page: Page) => page.getByRole('tabpanel').getByRole('article');
  const doc = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

  it('seeds the starter docs once, filters by section in the address, and adds, edits and deletes a markdown doc', async () => {
    const { page } = await signedInPage(stack(), { email: ADMIN_EMAIL, firstName: 'Dora' });
    await page.goto('/admin?tab=docs');
    const docsTab = page.getByRole('tab', { name: 'Docs' });
    await docsTab.waitFor();
    expect(await docsTab.getAttribute('aria-selected')).toBe('true');
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs.indexOf('Docs')).toBe(tabs.indexOf('Premium') + 1);
    await page.getByText('No docs yet: Seed Documentation adds a starter set').waitFor();

    // A seed the server cannot do says so in the console's words.
    await page.route('**/api/admin/docs/seed', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"code":"SERVICE_UNAVAILABLE","message":"Try again"}',
      }),
    );
    await page.getByRole('button', { name: 'Seed Documentation' }).click();
    expect(await toastText(page, 'Failed to seed documentation')).toContain('Failed to seed documentation');
    await page.unroute('**/api/admin/docs/seed');

    // Seeded: the server's message, then every section's docs; a second seed adds nothing and says so.
    await page.getByRole('button', { name: 'Seed Documentation' }).click();
    const seeded = `Seeded ${starterDocs.length} docs across the six sections.`;
    expect(await toastText(page, seeded)).toBe(seeded);
    await doc(page, 'Suspending a user').waitFor();
    expect(await docs(page).count()).toBe(starterDocs.length);
    // Markdown is rendered: the numbered steps are a list.
    await doc(page, 'Suspending a user').getByRole('listitem').filter({ hasText: 'Click Suspend' }).waitFor();
    expect(await doc(page, 'Suspending a user').innerText()).toContain(`by ${ADMIN_EMAIL}`);
    await page.getByRole('button', { name: 'Seed Documentation' }).click();
    const already = 'Documentation is already seeded: no docs were created.';
    expect(await toastText(page, already)).toBe(already);
    expect(await docs(page).count()).toBe(starterDocs.length);
    // axe-core finds nothing of any impact, as on every tab of the console at rest.
    expect(await accessibilityViolations(page)).toEqual([]);

    // The section filter is in the address: a reload keeps it.
    await page.getByRole('combobox', { name: 'Section' }).click();
    await page.getByRole('option', { name: 'Support' }).click();
    await page.waitForURL((url) => url.searchParams.get('section') === 'support');
    await doc(page, 'Suspending a user').waitFor({ state: 'detached' });
    expect(await docs(page).count()).toBe(supportDocs.length);
    await page.reload();
    await doc(page, supportDocs[0]?.title ?? '').waitFor();
    expect(await docs(page).count()).toBe(supportDocs.length);

    // Add: title and content are required, said on their fields; the section is the filter's.
    await page.getByRole('button', { name: 'Add Doc' }).click();
    const form = page.getByRole('form', { name: 'Add doc' });
    expect(await form.getByRole('combobox', { name: 'Section' }).inputValue()).toBe('Support');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByText('Title is required').waitFor();
    await form.getByText('Content is required').waitFor();
    await form.getByRole('textbox', { name: 'Title' }).fill('Refund requests');
    await form.getByRole('textbox', { name: 'Sort order' }).fill('5');
    await form
      .getByRole('textbox', { name: 'Content' })
      .fill('## Refund checklist\n\n- Find the payment\n- Reply within a day\n\n<b>raw</b> stays text');
    await form.getByRole('tab', { name: 'Preview' }).click();
    await form.getByRole('heading', { level: 2, name: 'Refund checklist' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await toastText(page, 'Doc added');
    await form.waitFor({ state: 'detached' });

    // Listed first (sort order 5 before the starter docs' 210 and 220), its markdown rendered and sanitised.
    const added = doc(page, 'Refund requests');
    expect(await docs(page).first().getAttribute('aria-labelledby')).toBe(
      await added.getAttribute('aria-labelledby'),
    );
    await added.getByRole('heading', { level: 2, name: 'Refund checklist' }).waitFor();
    expect(await added.getByRole('listitem').allInnerTexts()).toEqual([
      'Find the payment',
      'Reply within a day',
    ]);
    expect(await added.innerText()).toContain('<b>raw</b> stays text');
    expect(await added.locator('b').count()).toBe(0);
    expect(await added.innerText()).toMatch(new RegExp(`Updated .+ by ${ADMIN_EMAIL}`));

    // Edit: the dialog starts from the doc as it is.
    await added.getByRole('button', { name: 'Edit Refund requests' }).click();
    const edit = page.getByRole('form', { name: 'Edit doc' });
    expect(await edit.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Refund requests');
    await edit.getByRole('textbox', { name: 'Title' }).fill('Refunds and disputes');
    // Content left blank is said under it, even when the preview was showing.
    await edit.getByRole('textbox', { name: 'Content' }).fill('  ');
    await edit.getByRole('tab', { name: 'Preview' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Content is required').waitFor();
    await edit.getByRole('tab', { name: 'Write', selected: true }).waitFor();
    await edit
      .getByRole('textbox', { name: 'Content' })
      .fill('## Refund checklist\n\n- Find the payment\n- Refund in Stripe');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toastText(page, 'Doc updated');
    const edited = doc(page, 'Refunds and disputes');
    await edited.getByRole('listitem').filter({ hasText: 'Refund in Stripe' }).waitFor();
    await added.waitFor({ state: 'detached' });

    // Delete asks first; Cancel keeps it.
    await edited.getByRole('button', { name: 'Delete Refunds and disputes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Doc' });
    expect(await confirm.innerText()).toContain('Are you sure you want to delete “Refunds and disputes”?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await edited.waitFor();
    await edited.getByRole('button', { name: 'Delete Refunds and disputes' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastText(page, 'Doc deleted');
    await edited.waitFor({ state: 'detached' });
    expect(await docs(page).count()).toBe(supportDocs.length);
  });
});
