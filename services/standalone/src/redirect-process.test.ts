import type { Link } from '@sniplink/contracts';
import { clicksBehind, withReadModels } from '@sniplink/projections';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { type AppProcess, REDIRECT_MAIN, startAppProcess } from '@sniplink/test-support/app-process';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let api: TestApi;
let redirect: AppProcess;
let owner: HttpClient;
const ownerEmail = `redirect.${Date.now()}@example.com`;
beforeAll(async () => {
  api = await startTestApi();
  redirect = await startAppProcess(
    { DATABASE_URL: api.database.connectionString, LOG_LEVEL: 'warn', METRICS: 'on' },
    90_000,
    REDIRECT_MAIN,
  );
  owner = api.client();
  await owner.post('/api/auth/register', { email: ownerEmail, password: 'correct horse' });
}, 120_000);
afterAll(async () => {
  await redirect?.stop('SIGTERM');
  await api?.close();
});

const visit = (code: string) =>
  fetch(`${redirect.baseUrl}/s/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });

describe('the redirect as a process of its own (npm run start:redirect)', () => {
  it('redirects links the app creates, and the app counts its clicks', async () => {
    const link = (
      await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/own', title: null })
    ).body;
    for (let i = 0; i < 3; i++) {
      const response = await visit(link.shortCode.toUpperCase());
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('https://example.com/own');
    }
    expect((await visit('no-such-code')).status).toBe(404);
    const links = await until(
      async () => (await owner.get<Link[]>('/api/links')).body,
      (list) => list.find((l) => l.id === link.id)?.clickCount === 3,
    );
    expect(links.find((l) => l.id === link.id)?.clickCount).toBe(3);
  });

  it("follows the app's changes: a new target, a deleted link", async () => {
    const link = (
      await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/before', title: null })
    ).body;
    expect((await visit(link.shortCode)).headers.get('location')).toBe('https://example.com/before');
    await owner.patch(`/api/links/${link.id}`, { originalUrl: 'https://example.com/after' });
    const moved = await until(
      async () => (await visit(link.shortCode)).headers.get('location'),
      (location) => location === 'https://example.com/after',
    );
    expect(moved).toBe('https://example.com/after');
    await owner.request('DELETE', `/api/links/${link.id}`);
    expect(
      await until(
        async () => (await visit(link.shortCode)).status,
        (status) => status === 404,
      ),
    ).toBe(404);
  });

  it('serves no API, and reports its database, click stream, click buffer and click spill in /readyz', async () => {
    expect((await fetch(`${redirect.baseUrl}/api/links`)).status).toBe(404);
    const ready = await fetch(`${redirect.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { checks: Record<string, { ok: boolean; dropped?: number }> };
    expect(Object.keys(body.checks).sort()).toEqual(['clickBuffer', 'clickSpill', 'clickStream', 'database']);
    expect(body.checks.clickBuffer).toMatchObject({ ok: true, dropped: 0 });
    expect(body.checks.clickSpill).toMatchObject({ ok: true, files: 0 });
  });

  it('serves /metrics: the redirects it answered (the second from the link cache) and the clicks it published, no projections', async () => {
    const link = (
      await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/metrics', title: null })
    ).body;
    await until(
      async () => (await visit(link.shortCode)).status,
      (status) => status === 302,
    );
    await visit(link.shortCode);
    const scrape = await fetch(`${redirect.baseUrl}/metrics`);
    expect(scrape.status).toBe(200);
    const body = await scrape.text();
    const value = (series: string) =>
      Number(
        /^(\S+) (\S+)$/m.exec(body.split('\n').find((line) => line.startsWith(`${series} `)) ?? '')?.[2],
      );
    expect(value('sniplink_redirects_total')).toBeGreaterThanOrEqual(2);
    expect(
      value('sniplink_clicks_published_total') + value('sniplink_clicks_buffered'),
    ).toBeGreaterThanOrEqual(2);
    expect(value('sniplink_click_spill_bytes')).toBe(0);
    expect(body).not.toContain('sniplink_projection_lag_events');
  });

  // Last: the suspension ends the owner's session.
  it("stops a suspended owner's links until they are unsuspended, counting no click meanwhile", async () => {
    const link = (
      await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/held', title: null })
    ).body;
    // This process hears of a change through NOTIFY, a moment after the app: the redirects are counted.
    let redirects = 0;
    const status = async () => {
      const answer = await visit(link.shortCode);
      if (answer.status === 302) redirects += 1;
      return answer;
    };
    expect((await status()).status).toBe(302);
    const userId = (await api.runtime.accounts.findUserIdByEmail(ownerEmail)) ?? '';
    await api.runtime.accounts.suspend(userId, null);
    expect(
      await until(
        async () => (await status()).status,
        (code) => code === 403,
      ),
    ).toBe(403);
    const page = await status();
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('This link is unavailable');

    await api.runtime.accounts.unsuspend(userId);
    expect(
      await until(
        async () => (await status()).status,
        (code) => code === 302,
      ),
    ).toBe(302);
    expect(
      await until(
        () => clicksOf(link.id),
        (clicks) => clicks >= redirects,
      ),
    ).toBe(redirects);
  });
});

/** The link's counted clicks once the consumer has counted everything published so far. */
async function clicksOf(linkId: string): Promise<number> {
  const db = api.runtime.database.db;
  await until(
    async () => clicksBehind(db, await api.runtime.clickStream.endOffsets()),
    (behind) => behind === 0,
  );
  const row = await withReadModels(db)
    .selectFrom('rm_link_clicks')
    .select('clicks')
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  return Number(row?.clicks ?? 0);
}
