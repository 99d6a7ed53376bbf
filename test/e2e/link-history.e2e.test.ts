import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserUnavailableReason, seriousAccessibilityViolations } from './browser';
import { browserStackFor, signedUpContext, toastText } from './harness';

const unavailable = browserUnavailableReason();
if (unavailable) console.warn(`[e2e] link history and targeting counts SKIPPED: ${unavailable}`);

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const windowsChrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

interface CreatedLink {
  id: string;
  shortCode: string;
}

describe.skipIf(unavailable !== undefined)(
  "a link's history and its targeting counts on the dashboard",
  () => {
    const stack = browserStackFor();

    const openDetails = async (page: Page, code: string) => {
      await page.goto('/home');
      await page.getByRole('button', { name: `Analytics for ${code}` }).click();
    };

    it('an edited and paused link lists both changes, made by "You", in its History tab', async () => {
      const context = await signedUpContext(stack(), { email: 'hana@example.com', firstName: 'Hana' });
      const created = await context.request.post('/api/links', {
        data: { originalUrl: 'https://example.com/autumn', title: 'Autumn' },
      });
      expect(created.status()).toBe(201);
      const link = (await created.json()) as CreatedLink;
      const page = await context.newPage();
      await page.goto('/home');
      const card = page.getByRole('article', { name: 'Autumn' });

      await card.getByRole('button', { name: `Edit ${link.shortCode}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Link' });
      await dialog.getByRole('textbox', { name: 'Original URL' }).fill('https://example.com/winter');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toastText(page, 'Link updated successfully!');
      await card.getByRole('button', { name: `Pause ${link.shortCode}` }).click();
      await toastText(page, 'Link paused');

      await card.getByRole('button', { name: `Analytics for ${link.shortCode}` }).click();
      await card.getByRole('tab', { name: 'History' }).click();
      await page.waitForURL((url) => url.searchParams.get('details') === 'history');
      const history = card.getByRole('tabpanel', { name: 'History' });
      await history.getByText('Target changed to https://example.com/winter').waitFor();
      await history.getByText('Paused', { exact: true }).waitFor();
      const entries = await history.locator('.mantine-Timeline-itemTitle').allInnerTexts();
      expect(entries).toEqual([
        'Paused',
        'Target changed to https://example.com/winter',
        `Created with code ${link.shortCode}, to https://example.com/autumn`,
      ]);
      expect(await history.getByText(/^You · /).count()).toBe(3);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      // The address names the tab: a reload opens the history again.
      await page.reload();
      await card.getByRole('tabpanel', { name: 'History' }).getByText('Paused', { exact: true }).waitFor();
      await context.close();
    }, 60_000);

    it('a link with a rule shows the clicks the rule sent and the main target got; one without rules has no Targeting card', async () => {
      const context = await signedUpContext(stack(), { email: 'ravi@example.com', firstName: 'Ravi' });
      const made = async (data: Record<string, unknown>) => {
        const response = await context.request.post('/api/links', { data });
        expect(response.status()).toBe(201);
        return (await response.json()) as CreatedLink;
      };
      const plain = await made({ originalUrl: 'https://example.com/plain', title: 'Plain' });
      const link = await made({
        originalUrl: 'https://example.com/app',
        title: 'App',
        rules: [{ when: { device: ['ios'] }, url: 'https://apps.example.com/ios' }],
      });
      for (const [userAgent, location] of [
        [iphone, 'https://apps.example.com/ios'],
        [iphone, 'https://apps.example.com/ios'],
        [windowsChrome, 'https://example.com/app'],
      ] as const) {
        const visit = await fetch(`${stack().app.baseUrl}/s/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': userAgent },
        });
        expect([visit.status, visit.headers.get('location')]).toEqual([302, location]);
      }

      const page = await context.newPage();
      await openDetails(page, link.shortCode);
      const targeting = page.getByRole('group', { name: 'Targeting', exact: true });
      // Clicks reach the analytics asynchronously and a shown answer is kept: load the address afresh.
      await expect
        .poll(
          async () => {
            await page.goto(page.url());
            await page.getByRole('group', { name: 'Devices', exact: true }).waitFor();
            return targeting
              .getByRole('group')
              .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label')));
          },
          { timeout: 20_000, interval: 300 },
        )
        .toEqual(['Rule 1: 2 clicks', 'Main target: 1 click']);
      await targeting.getByText('— device iPhone or iPad').waitFor();
      await targeting.getByText('https://apps.example.com/ios').waitFor();

      await openDetails(page, plain.shortCode);
      await page.getByRole('group', { name: 'Devices', exact: true }).waitFor();
      expect(await targeting.count()).toBe(0);
      await context.close();
    }, 60_000);
  },
);
