import { describe, expect, it } from 'vitest';
import { browserUnavailableReason } from './browser';
import { browserStackFor, signedInPage } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] projections panel SKIPPED: ${unavailable}`);

const ADMIN_EMAIL = 'projections.keeper@example.com';

describe.skipIf(unavailable !== undefined)('the projections panel in a real browser', () => {
  const stack = browserStackFor({ ADMIN_EMAILS: ADMIN_EMAIL });

  it('an admin sees every read model running, rebuilds the links read model after confirming, and sees it done', async () => {
    const { page } = await signedInPage(stack(), { email: ADMIN_EMAIL, firstName: 'Pat' });
    await page.goto('/admin?tab=events');
    const table = page.getByRole('table', { name: 'Projections' });
    await table.waitFor();
    const links = table
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'links', exact: true }) });
    await expect.poll(() => links.textContent(), { timeout: 15_000 }).toContain('running');
    expect(await links.textContent()).toMatch(/pid \d+/);

    await links.getByRole('button', { name: 'Rebuild' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rebuild links?' });
    await dialog.getByRole('button', { name: 'Rebuild' }).click();
    // The panel refreshes by itself: the rebuild's end shows without a reload.
    await expect
      .poll(() => links.textContent(), { timeout: 30_000 })
      .toMatch(/done: \d+ events, swap [\d.]+ ms/);
    expect(await links.textContent()).toContain('running');
  });
});
