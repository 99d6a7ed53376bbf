import type { Link, LinkAnalytics, UserAnalytics } from '@sniplink/contracts';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

let api: TestApi;
/** The same app with REDIRECT_FAST_PATH=off: the Fastify route answers every redirect. */
let withoutFastPath: TestApi;
beforeAll(async () => {
  [api, withoutFastPath] = await Promise.all([
    startTestApi({ TRUST_PROXY: '1' }),
    startTestApi({ TRUST_PROXY: '1', REDIRECT_FAST_PATH: 'off' }),
  ]);
});
afterAll(() => Promise.all([api.close(), withoutFastPath.close()]));

let counter = 0;
async function signedUp(app: TestApi, name: string): Promise<HttpClient> {
  const client = app.client();
  await client.post('/api/auth/register', {
    email: `${name}.${Date.now()}.${++counter}@example.com`,
    password: 'correct horse',
  });
  return client;
}

describe('clicks and analytics', () => {
  // Counted the same whoever answers the redirect: the fast paths (on) or the Fastify route alone (off).
  it.each(['on', 'off'] as const)(
    'REDIRECT_FAST_PATH=%s: counts every human click by device, referrer, country, browser and OS; bots are redirected, not counted',
    async (fastPath) => {
      const app = fastPath === 'on' ? api : withoutFastPath;
      const owner = await signedUp(app, 'clicks');
      const link = (
        await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/promo', title: null })
      ).body;
      const visits: [string, Record<string, string>][] = [
        [
          'desktop',
          {
            'user-agent': UA.chromeWindows,
            referer: 'https://www.google.com/search?q=x',
            'x-forwarded-for': '8.8.8.8',
          },
        ],
        ['desktop', { 'user-agent': UA.chromeWindows, 'x-forwarded-for': '81.2.69.160' }],
        [
          'mobile',
          { 'user-agent': UA.safariIphone, referer: 'https://t.co/abc', 'x-forwarded-for': '81.2.69.160' },
        ],
        [
          'tablet',
          { 'user-agent': UA.safariIpad, referer: 'https://www.google.com/', 'x-forwarded-for': '10.0.0.1' },
        ],
        ['desktop', { 'user-agent': UA.firefoxLinux, 'x-forwarded-for': '203.0.113.9, 8.8.8.8' }],
        ['bot', { 'user-agent': UA.googlebot, 'x-forwarded-for': '8.8.8.8' }],
      ];
      for (const [, headers] of visits) {
        const response = await fetch(`${app.baseUrl}/s/${link.shortCode}`, { redirect: 'manual', headers });
        expect(response.status).toBe(302);
      }
      const started = Date.now();
      const analytics = await until(
        async () => (await owner.get<LinkAnalytics>(`/api/analytics/link/${link.id}`)).body,
        (a) => Object.values(a.deviceBreakdown).reduce((sum, n) => sum + n, 0) >= 5,
      );
      // The consumer writes what waits once the stream is quiet for 250 ms (at most 5 s under load).
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(analytics.deviceBreakdown).toEqual({ desktop: 3, mobile: 1, tablet: 1 });
      expect(analytics.referrerBreakdown).toEqual({ 'google.com': 2, direct: 2, 't.co': 1 });
      // TRUST_PROXY=1: the client is the address the one proxy appended, the right-most; what a client wrote
      // to its left (203.0.113.9) is ignored. Private addresses have no country.
      expect(analytics.countryBreakdown).toEqual({ US: 2, GB: 2, Unknown: 1 });
      expect(analytics.browserBreakdown).toEqual({ Chrome: 2, Safari: 2, Firefox: 1 });
      expect(analytics.osBreakdown).toEqual({ Windows: 2, iOS: 2, Linux: 1 });
      const today = new Date().toISOString().slice(0, 10);
      expect(analytics.clicksByDay.at(-1)).toEqual({ date: today, clicks: 5 });
      expect(analytics.clicksByDay).toHaveLength(30);
      const listed = (await owner.get<Link[]>('/api/links')).body.find((l) => l.id === link.id);
      expect(listed?.clickCount).toBe(5);
      expect((await owner.get<UserAnalytics>('/api/analytics/user')).body).toMatchObject({ totalClicks: 5 });
    },
  );

  it('exports a CSV: one row per link, quotes and line breaks escaped, formulas neutralised', async () => {
    const client = await signedUp(api, 'csv');
    await client.post('/api/links', {
      originalUrl: 'https://example.com/1',
      title: '=HYPERLINK("http://evil")',
    });
    await client.post('/api/links', {
      originalUrl: 'https://example.com/2',
      title: 'Quote " and, comma\nnew line',
    });
    await client.post('/api/links', { originalUrl: 'https://example.com/3', title: '@SUM(A1)' });
    const response = await client.get<string>('/api/analytics/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sniplink-links-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = response.text;
    expect(text.split('\r\n')[0]).toBe('Short Code,Short URL,Original URL,Title,Created,Clicks');
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain('"Quote "" and, comma\nnew line"');
    expect(text).toContain(",'@SUM(A1),");
    expect(text.trim().split('\r\n')).toHaveLength(4);
    expect((await api.client().get('/api/analytics/export')).status).toBe(401);
  });
});
